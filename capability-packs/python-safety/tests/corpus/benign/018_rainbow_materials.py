import bpy
import colorsys

steps = 7
for i in range(steps):
    bpy.ops.mesh.primitive_cylinder_add(radius=0.4, depth=1.0 + i * 0.3, location=(i * 1.0, 0, 0))
    col = bpy.context.active_object
    hue = i / steps
    r, g, b = colorsys.hsv_to_rgb(hue, 0.85, 0.9)
    mat = bpy.data.materials.new(f"Rainbow_{i}")
    mat.use_nodes = True
    mat.node_tree.nodes["Principled BSDF"].inputs["Base Color"].default_value = (r, g, b, 1.0)
    mat.diffuse_color = (r, g, b, 1.0)
    col.data.materials.append(mat)
    print(f"{col.name}: hue={hue:.2f} rgb=({r:.2f}, {g:.2f}, {b:.2f})")
