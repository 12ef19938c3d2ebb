# expect: dangerous-builtin
import bpy
op = vars(bpy.types)['WM_OT_context_toggle']
