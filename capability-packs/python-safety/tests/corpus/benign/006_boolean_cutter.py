import bpy

bpy.ops.mesh.primitive_cube_add(size=2.0, location=(0, 0, 1))
block = bpy.context.active_object
block.name = "Block"

bpy.ops.mesh.primitive_cylinder_add(radius=0.5, depth=3.0, location=(0, 0, 1))
cutter = bpy.context.active_object
cutter.name = "Cutter"
cutter.display_type = 'WIRE'
cutter.hide_render = True

boolean = block.modifiers.new(name="Hole", type='BOOLEAN')
boolean.operation = 'DIFFERENCE'
boolean.object = cutter
boolean.solver = 'EXACT'

bpy.context.view_layer.objects.active = block
bpy.ops.object.modifier_apply(modifier=boolean.name)
bpy.data.objects.remove(cutter, do_unlink=True)

print("faces after boolean:", len(block.data.polygons))
