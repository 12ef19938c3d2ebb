# expect: blender-python-class
import bpy
class Props:
    module = "pathlib"
    data_path = "Path('/tmp/capstan-pwned').touch()"
op = getattr(bpy.types, 'WM_OT_context_toggle')
op.execute(Props(), bpy.context)
