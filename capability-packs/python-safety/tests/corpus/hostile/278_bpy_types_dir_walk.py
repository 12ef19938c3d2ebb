# expect: dynamic-attribute
import bpy
for n in dir(bpy.types):
    if n.endswith('context_toggle'):
        op = getattr(bpy.types, n)
