# expect: blender-file-access
import bpy

with bpy.data.temp_data() as temp:
    print(temp)
