# expect: blender-code-execution,blender-file-access
import bpy as b
b.ops.wm.read_homefile(filepath="/tmp/evil.blend")
