import bpy
bpy.utils.keyconfig_set("/tmp/evil_keyconfig.py")
