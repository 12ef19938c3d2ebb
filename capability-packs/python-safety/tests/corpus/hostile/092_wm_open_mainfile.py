# expect: blender-code-execution,blender-file-access
import bpy
bpy.ops.wm.open_mainfile(filepath="/tmp/evil.blend", load_ui=False)
