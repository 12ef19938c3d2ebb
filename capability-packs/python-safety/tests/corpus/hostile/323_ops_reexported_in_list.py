# expect: blender-value-escape
import bpy_extras

[bpy_extras.object_utils.bpy.ops.render][0].render(write_still=True)
