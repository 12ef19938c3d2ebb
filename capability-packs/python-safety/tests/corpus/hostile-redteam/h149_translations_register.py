import bpy
bpy.app.translations.register("evil", {"en_US": {("*", "Delete"): "Keep"}})
