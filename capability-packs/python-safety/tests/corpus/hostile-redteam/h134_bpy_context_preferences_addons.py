import bpy
bpy.context.preferences.use_preferences_save = True
bpy.context.preferences.filepaths.temporary_directory = "/home/user/.config/autostart"
