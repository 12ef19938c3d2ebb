# expect: blender-file-access
import bpy

bpy.context.object.modifiers["GeometryNodes"].bake_directory = "/tmp/cache"
