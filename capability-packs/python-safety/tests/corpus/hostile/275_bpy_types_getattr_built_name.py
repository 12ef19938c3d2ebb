# expect: dynamic-attribute
import bpy
op = getattr(bpy.types, 'WM_OT_' + 'context_toggle')
