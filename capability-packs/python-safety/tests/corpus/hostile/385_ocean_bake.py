# expect: blender-file-access
import bpy

bpy.ops.object.ocean_bake(modifier="Ocean")
