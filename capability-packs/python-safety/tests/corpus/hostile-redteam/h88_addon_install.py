import bpy
bpy.ops.preferences.addon_install(filepath="/tmp/evil.zip")
bpy.ops.preferences.addon_enable(module="evil")
