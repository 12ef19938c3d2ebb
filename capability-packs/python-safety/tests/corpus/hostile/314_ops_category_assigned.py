# expect: blender-value-escape
import bpy

anim = bpy.ops.anim
anim.keying_set_export(filepath="/tmp/shlex.py")
