import bpy
se = bpy.context.scene.sequence_editor_create()
se.sequences.new_image("i", "/home/user/.ssh/id_rsa", 1, 1)
se.sequences.new_movie("m", "/etc/passwd", 2, 1)
