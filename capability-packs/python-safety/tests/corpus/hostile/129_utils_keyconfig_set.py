# expect: blender-code-execution
import bpy
bpy.utils.keyconfig_set("/tmp/payload.py")
