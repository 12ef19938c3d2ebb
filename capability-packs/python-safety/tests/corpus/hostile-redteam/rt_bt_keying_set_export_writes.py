import bpy
class P:
    filepath = '/tmp/ks.py'
bpy.types.ANIM_OT_keying_set_export.execute(P(), bpy.context)
