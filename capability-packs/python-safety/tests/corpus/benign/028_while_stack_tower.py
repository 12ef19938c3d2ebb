import bpy

height = 0.0
size = 2.0
level = 0
while size > 0.2 and level < 20:
    bpy.ops.mesh.primitive_cube_add(size=size, location=(0, 0, height + size / 2))
    block = bpy.context.active_object
    block.name = f"Tier_{level}"
    height += size
    size *= 0.75
    level += 1

print(f"built {level} tiers, total height {height:.2f}")
