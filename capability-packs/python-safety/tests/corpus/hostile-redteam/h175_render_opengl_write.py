import bpy
bpy.ops.render.opengl(write_still=True)
bpy.ops.render.render(animation=True)
