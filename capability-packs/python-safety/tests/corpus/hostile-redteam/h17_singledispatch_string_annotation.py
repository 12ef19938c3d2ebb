import bpy, functools
@functools.singledispatch
def f(x): pass
@f.register
def _(x: "bpy.ops.wm.quit_blender() or int"): pass
