# expect: blender-code-execution
import bpy
area = next(a for a in bpy.context.screen.areas if a.type == 'NODE_EDITOR')
with bpy.context.temp_override(area=area):
    bpy.ops.node.add_node(type="ShaderNodeMath", settings=[{"name": "label", "value": "__import__('os').getlogin()"}])
