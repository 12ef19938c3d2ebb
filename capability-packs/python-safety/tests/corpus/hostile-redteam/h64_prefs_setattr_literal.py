import bpy
fp = bpy.context.preferences.filepaths
setattr(fp, "use_scripts_auto" "_execute", True)
