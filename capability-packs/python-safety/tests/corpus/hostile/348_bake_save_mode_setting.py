# expect: blender-file-access
import bpy

bake = bpy.context.scene.render.bake
bake.save_mode = "EXTERNAL"
bpy.ops.object.bake(type="DIFFUSE")
