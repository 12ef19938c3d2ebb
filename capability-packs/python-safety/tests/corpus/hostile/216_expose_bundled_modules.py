# expect: blender-persistence
import bpy
bpy.utils.expose_bundled_modules()
