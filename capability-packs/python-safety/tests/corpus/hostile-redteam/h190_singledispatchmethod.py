import functools, bpy
class K:
    @functools.singledispatchmethod
    def m(self, x): pass
    @m.register
    def _(self, x: "bpy.app.timers.register(print) or int"): pass
