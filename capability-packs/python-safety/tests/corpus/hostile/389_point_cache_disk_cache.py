# expect: blender-file-access
import bpy

cache = bpy.context.object.modifiers["Cloth"].point_cache
cache.use_disk_cache = True
