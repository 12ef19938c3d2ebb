# expect: blender-persistence,blender-file-access
import bpy
d = bpy.context.preferences.filepaths.script_directories.new()
d.directory = "/tmp/evil_scripts"
