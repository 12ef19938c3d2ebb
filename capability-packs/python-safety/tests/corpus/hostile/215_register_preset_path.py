# expect: blender-persistence
import bpy
bpy.utils.register_preset_path("/tmp/presets")
