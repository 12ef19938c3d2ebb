# expect: dynamic-attribute,blender-persistence
import bpy
for key in ["use_scripts_auto_" + "execute"]:
    setattr(bpy.context.preferences.filepaths, key, True)
