# expect: dunder-attribute
import bpy
op = bpy.types.__getattr__('WM_OT_context_toggle')
