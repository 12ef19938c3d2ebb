# expect: blender-value-escape
import bpy

for name in ("anim",):
    cat = getattr(bpy.ops, name)
    cat.keying_set_export(filepath="/tmp/x.py")
