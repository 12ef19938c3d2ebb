# expect: blender-python-class
import bpy
class G(bpy.types.PropertyGroup):
    pass
