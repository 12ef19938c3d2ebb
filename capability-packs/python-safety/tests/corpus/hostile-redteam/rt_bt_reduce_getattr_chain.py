import bpy
import functools
op = functools.reduce(getattr, ['types', 'WM_OT_context_toggle'], bpy)
