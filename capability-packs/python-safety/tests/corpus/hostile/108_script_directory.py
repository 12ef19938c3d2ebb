# expect: blender-persistence
import bpy
bpy.context.preferences.filepaths.script_directory = "/tmp/evil_scripts"
