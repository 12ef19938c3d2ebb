import bpy
se = bpy.context.scene.sequence_editor_create()
strip = se.sequences.new_effect("c", 'COLOR', 1, frame_start=1, frame_end=2)
img_strip = se.sequences_all["img"]
img_strip.directory = "/etc/"
img_strip.elements[0].filename = "passwd"
