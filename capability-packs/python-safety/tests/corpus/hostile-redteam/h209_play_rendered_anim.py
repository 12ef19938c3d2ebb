import bpy
bpy.ops.render.play_rendered_anim()
