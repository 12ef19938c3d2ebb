# expect: blender-python-class
import bpy
class Props:
    module = "pathlib"
    data_path = "Path('/tmp/capstan-pwned').touch()"
f = lambda op=bpy.types.WM_OT_context_toggle: op.execute(Props(), bpy.context)
f()
