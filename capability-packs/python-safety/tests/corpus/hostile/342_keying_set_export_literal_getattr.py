# expect: blender-file-access
import bpy

getattr(bpy.ops.anim, "keying_set_export")()
