import typing
ref = typing.ForwardRef("bpy.app.timers")
typing.get_type_hints(type("X", (), {"__annotations__": {"a": ref}}))
