import bpy
bpy.ops.Wm.read_factory_settings(use_empty=True)
bpy.ops.Wm.save_userpref()
