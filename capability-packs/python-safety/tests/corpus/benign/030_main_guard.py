import bpy
from math import radians


def clear_meshes():
    for obj in [o for o in bpy.context.scene.objects if o.type == 'MESH']:
        bpy.data.objects.remove(obj, do_unlink=True)


def build_table(top_size=2.0, height=0.8):
    bpy.ops.mesh.primitive_cube_add(location=(0, 0, height))
    top = bpy.context.active_object
    top.name = "TableTop"
    top.scale = (top_size / 2, top_size / 3, 0.05)
    for sx in (-1, 1):
        for sy in (-1, 1):
            bpy.ops.mesh.primitive_cylinder_add(radius=0.05, depth=height,
                                                location=(sx * top_size * 0.45, sy * top_size * 0.28, height / 2))
    return top


def main():
    clear_meshes()
    top = build_table()
    top.rotation_euler.z = radians(15)
    print("table ready:", top.name)


if __name__ == "__main__":
    main()
