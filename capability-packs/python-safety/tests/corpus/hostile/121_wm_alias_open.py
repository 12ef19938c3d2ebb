# expect: blender-code-execution,blender-file-access
import bpy
w = bpy.ops.wm
w.open_mainfile(filepath="/tmp/evil.blend")
