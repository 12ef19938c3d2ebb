import bpy
prefs = bpy.context.preferences
prefs.filepaths.use_scripts_auto_execute = True
