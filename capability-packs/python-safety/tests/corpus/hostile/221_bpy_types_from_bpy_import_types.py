# expect: blender-python-class
import bpy
from bpy import types
class Props:
    module = "pathlib"
    data_path = "Path('/tmp/capstan-pwned').touch()"
types.WM_OT_context_toggle.execute(Props(), bpy.context)
