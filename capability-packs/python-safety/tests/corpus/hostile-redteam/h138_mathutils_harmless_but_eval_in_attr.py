import bpy
bpy.app.driver_namespace.update({"p": print})
