# expect: blender-value-escape
import bpy.ops as o

o.anim.keying_set_export(filepath="/tmp/x.py")
