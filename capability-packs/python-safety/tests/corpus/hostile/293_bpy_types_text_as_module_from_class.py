# expect: blender-code-execution
import bpy
class F:
    name = 'x'
    def as_string(self):
        return 'import os'
bpy.types.Text.as_module(F())
