import bpy
bpy.ops.fluid.bake_all()
bpy.ops.ptcache.bake_all(bake=True)
