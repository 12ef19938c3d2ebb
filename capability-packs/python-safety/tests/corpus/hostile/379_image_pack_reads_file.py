# expect: blender-file-access
import bpy

img = bpy.data.images["Imported"]
img.pack()
result = len(img.packed_file.data)
