# expect: blender-python-class
import bpy
class Props:
    module = "pathlib"
    data_path = "Path('/tmp/capstan-pwned').touch()"
ops = [bpy.types.WM_OT_context_toggle]
ops[0].execute(Props(), bpy.context)
