# expect: format-traversal
import bpy
tmpl = bpy.context.scene["template"]
print(tmpl.format(bpy.context.scene))
