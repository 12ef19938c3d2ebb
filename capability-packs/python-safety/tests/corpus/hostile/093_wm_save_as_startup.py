# expect: blender-file-access,blender-code-execution
import bpy
bpy.ops.wm.save_as_mainfile(filepath="/root/.config/blender/4.2/config/startup.blend")
