# expect: blender-python-class
import bpy
class P:
    pass
bpy.types.RENDER_OT_play_rendered_anim.execute(P(), bpy.context)
