import bpy
bpy.ops.object.text_add()
bpy.ops.object.editmode_toggle()
bpy.ops.font.text_paste_from_file(filepath="/etc/passwd")
