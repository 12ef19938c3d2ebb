# expect: blender-file-access
import bpy

bpy.ops.asset.catalogs_save()
