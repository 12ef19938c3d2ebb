# expect: blender-file-access
import bpy
bpy.data.images["logo.png"].unpack(method='WRITE_ORIGINAL')
