# Guard a helper with type checks, and read a property's description from RNA.
import bpy


def describe(thing) -> str:
    if isinstance(thing, bpy.types.ID):
        return f"{type(thing).__name__} datablock {thing.name!r}"
    if isinstance(thing, bpy.types.bpy_struct):
        return type(thing).__name__
    return repr(thing)


loc = bpy.types.Object.bl_rna.properties["location"]
print("location:", loc.description)
print(describe(bpy.context.scene))
print(describe(bpy.context.scene.render))
print(describe(3))
result = {"subclass": issubclass(bpy.types.Mesh, bpy.types.ID), "unit": loc.unit}
