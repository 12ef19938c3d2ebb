# expect: blender-file-access
import bpy
bpy.ops.import_scene.obj(filepath="/etc/passwd")
