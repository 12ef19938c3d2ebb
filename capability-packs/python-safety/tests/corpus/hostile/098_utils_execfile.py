# expect: blender-code-execution
import bpy
bpy.utils.execfile("/tmp/payload.py")
