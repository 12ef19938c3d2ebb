import bpy
bpy.ops.object.bake(type="DIFFUSE", filepath="/tmp/x.png", save_mode="EXTERNAL")
