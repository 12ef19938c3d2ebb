# expect: blender-value-escape
import bpy

pick = lambda: bpy.ops.render
pick().render(animation=True)
