# expect: blender-file-access
import bpy


class Any:
    pass


a = Any()
a.base_path = "/tmp"
