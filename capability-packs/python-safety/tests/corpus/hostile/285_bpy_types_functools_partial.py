# expect: blender-python-class
import bpy
import functools
class Props:
    module = "pathlib"
    data_path = "Path('/tmp/capstan-pwned').touch()"
run = functools.partial(bpy.types.WM_OT_context_toggle.execute, Props())
