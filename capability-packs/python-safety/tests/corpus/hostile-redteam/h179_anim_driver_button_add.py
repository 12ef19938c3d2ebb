import bpy
bpy.ops.anim.driver_button_add()
bpy.ops.anim.paste_driver_button()
