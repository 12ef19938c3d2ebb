import bpy

obj = bpy.context.active_object
bevel = obj.modifiers.new(name="Bevel", type='BEVEL')
for attr, value in (("width", 0.04), ("segments", 3), ("limit_method", 'ANGLE')):
    setattr(bevel, attr, value)

props = ["width", "segments", "limit_method"]
report = [f"{p}={getattr(bevel, p)!r}" for p in props]
print("; ".join(report))
