import bpy, functools
code = "bpy.ops." + "w" + "m.quit_blender() or int"
@functools.singledispatch
def f(x): pass
def g(x: code): pass
f.register(g)
