import bpy
bpy.ops.ed.lib_id_load_custom_preview(filepath="/home/user/.ssh/id_rsa")
