import bpy
bpy.ops.node.add_node(
    type="ShaderNodeMath",
    settings=[{"name": "label", "value": "exec('import os')"}],
)
