import bpy
f = lambda ops=bpy.ops: ops.wm.read_factory_settings()
f()
