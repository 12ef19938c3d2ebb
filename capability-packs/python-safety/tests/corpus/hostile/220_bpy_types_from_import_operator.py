# expect: blender-python-class
from bpy.types import WM_OT_context_toggle
import bpy
class Props:
    module = "pathlib"
    data_path = "Path('/tmp/capstan-pwned').touch()"
WM_OT_context_toggle.execute(Props(), bpy.context)
