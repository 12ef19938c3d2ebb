# expect: blender-code-execution,blender-persistence
import bpy
kc = bpy.context.window_manager.keyconfigs.addon
km = kc.keymaps.new(name="3D View", space_type='VIEW_3D')
kmi = km.keymap_items.new("wm.context_set_value", 'SPACE', 'PRESS')
kmi.properties.data_path = "scene.frame_current"
kmi.properties.value = "__import__('os').system('id') or 1"
