# expect: blender-file-access
import bpy

bpy.data.images["Imported"].reload()
