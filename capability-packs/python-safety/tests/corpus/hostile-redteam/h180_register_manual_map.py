import bpy
bpy.utils.register_manual_map(lambda: ("https://evil/", ()))
bpy.utils.register_preset_path("/tmp/evil_presets")
