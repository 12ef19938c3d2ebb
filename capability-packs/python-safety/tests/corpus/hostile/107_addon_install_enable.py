# expect: blender-persistence
import bpy
bpy.ops.preferences.addon_install(filepath="/tmp/evil_addon.zip", overwrite=True)
bpy.ops.preferences.addon_enable(module="evil_addon")
