# expect: blender-file-access
import bpy

result = bpy.path.module_names("/home/user")
