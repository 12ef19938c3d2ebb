import bpy, typing
name = "".join(["w", "m"])
op = typing.operator.attrgetter(name)(bpy.ops)
op.open_mainfile(filepath="/tmp/evil.blend")
