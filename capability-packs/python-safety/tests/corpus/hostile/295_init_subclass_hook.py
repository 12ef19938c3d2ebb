# expect: implicit-code
import bpy


class Base:
    def __init_subclass__(cls, **kwargs):
        bpy.ops.render.render(write_still=False)
