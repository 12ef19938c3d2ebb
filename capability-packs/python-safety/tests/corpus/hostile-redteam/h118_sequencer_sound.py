import bpy
se = bpy.context.scene.sequence_editor_create()
se.sequences.new_sound("s", "/etc/passwd", 1, 1)
