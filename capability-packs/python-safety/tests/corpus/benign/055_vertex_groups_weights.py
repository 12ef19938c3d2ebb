import bpy

bpy.ops.mesh.primitive_cylinder_add(vertices=24, depth=4.0, location=(0, 0, 2))
column = bpy.context.active_object
me = column.data

group = column.vertex_groups.new(name="Top")
zs = [v.co.z for v in me.vertices]
low, high = min(zs), max(zs)
for v in me.vertices:
    weight = (v.co.z - low) / (high - low) if high > low else 0.0
    group.add([v.index], weight, 'REPLACE')

twist = column.modifiers.new("Twist", 'SIMPLE_DEFORM')
twist.deform_method = 'TWIST'
twist.angle = 1.2
twist.vertex_group = group.name

print(f"{group.name}: {len(me.vertices)} weighted vertices")
