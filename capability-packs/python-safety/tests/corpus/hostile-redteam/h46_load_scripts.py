import bpy
bpy.context.preferences.filepaths.script_directories.new().directory = "/tmp/evil"
bpy.utils.load_scripts(refresh_scripts=True)
