import bpy
from enum import Enum, auto


class Finish(Enum):
    MATTE = auto()
    SATIN = auto()
    GLOSS = auto()
    METAL = auto()


ROUGHNESS = {Finish.MATTE: 0.9, Finish.SATIN: 0.5, Finish.GLOSS: 0.1, Finish.METAL: 0.25}


def make_material(finish, color):
    mat = bpy.data.materials.new(f"{finish.name.title()}Paint")
    mat.use_nodes = True
    bsdf = mat.node_tree.nodes["Principled BSDF"]
    bsdf.inputs["Base Color"].default_value = (*color, 1.0)
    bsdf.inputs["Roughness"].default_value = ROUGHNESS[finish]
    bsdf.inputs["Metallic"].default_value = 1.0 if finish is Finish.METAL else 0.0
    return mat


for finish in Finish:
    m = make_material(finish, (0.6, 0.6, 0.65))
    print(finish.value, finish.name, m.name)
