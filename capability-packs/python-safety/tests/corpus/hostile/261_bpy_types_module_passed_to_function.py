# expect: blender-code-execution
import bpy

def pick(mod):
    return mod

print(pick(bpy.types))
