# expect: dynamic-attribute
import bpy
class D:
    def __eq__(self, v):
        v["_" + "_class__"] = 1
        return False
N = {"name": 1}
if "name" in N == D():
    pass
for k in N:
    getattr(bpy.context.object, k)
