# expect: blender-persistence
import bpy
prefs = bpy.context.preferences
prefs.filepaths.use_scripts_auto_execute = True
bpy.ops.wm.save_userpref()
