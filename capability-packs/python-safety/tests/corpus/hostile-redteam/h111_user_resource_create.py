import bpy
p = bpy.utils.user_resource("SCRIPTS", path="startup", create=True)
