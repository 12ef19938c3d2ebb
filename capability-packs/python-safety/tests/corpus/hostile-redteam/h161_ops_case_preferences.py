import bpy
bpy.ops.PREFERENCES.addon_install(filepath="/tmp/evil.zip")
