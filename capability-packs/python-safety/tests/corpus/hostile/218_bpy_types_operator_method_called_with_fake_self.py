# expect: blender-python-class
import bpy
class Props:
    module = "pathlib"
    data_path = "Path('/tmp/capstan-pwned').touch()"
bpy.types.WM_OT_context_toggle.execute(Props(), bpy.context)
