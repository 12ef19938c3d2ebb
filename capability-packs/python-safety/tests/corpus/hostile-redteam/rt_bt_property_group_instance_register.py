import bpy
bpy.context.scene.cycles.register()
