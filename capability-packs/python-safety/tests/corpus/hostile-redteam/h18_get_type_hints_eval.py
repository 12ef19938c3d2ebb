import typing, bpy
def f(x: "bpy.utils.execfile('/tmp/payload.py')"): pass
typing.get_type_hints(f)
