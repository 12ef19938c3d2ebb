# expect: blender-value-escape
# Issue 26: the operator category in a list hides the call from the path rules.
import bpy

[bpy.ops.render][0].render(write_still=True)
