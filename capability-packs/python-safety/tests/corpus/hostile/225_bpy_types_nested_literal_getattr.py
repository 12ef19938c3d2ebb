# expect: blender-python-class
import bpy
op = getattr(getattr(bpy, 'types'), 'ANIM_OT_keying_set_export')
print(op)
