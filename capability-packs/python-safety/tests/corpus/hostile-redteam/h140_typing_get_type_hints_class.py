import typing
class C:
    a: "bpy.app.handlers.load_post.append(print)"
typing.get_type_hints(C)
