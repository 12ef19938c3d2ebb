import bpy
kc = bpy.context.path_resolve("window_manager.keyconfigs.addon")
kc.keymaps.new(name="Window").keymap_items.new("object.delete", "X", "PRESS")
