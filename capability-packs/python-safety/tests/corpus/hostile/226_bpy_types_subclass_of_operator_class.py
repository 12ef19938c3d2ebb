# expect: blender-python-class
import bpy
class Mine(bpy.types.WM_OT_context_toggle):
    module = 'pathlib'
    data_path = "Path('/tmp/x').touch()"
Mine.execute(Mine, bpy.context)
