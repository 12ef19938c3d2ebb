# expect: blender-python-class
import bpy
class Props:
    data_path = "scene if bpy.context.scene.__setitem__('p', open('/tmp/x', 'w').write('x')) else None"
    value = "0"
bpy.types.WM_OT_context_set_value.execute(Props(), bpy.context)
