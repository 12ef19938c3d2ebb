# expect: blender-file-access
import bpy
scene = bpy.context.scene
scene.render.filepath = "/tmp/x"
bpy.ops.render.render(write_still=True)
