import bpy
kc = bpy.context.window_manager.keyconfigs.addon
km = kc.keymaps.new(name="3D View", space_type="VIEW_3D")
km.keymap_items.new("object.delete", "A", "PRESS")
