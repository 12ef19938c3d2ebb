# expect: blender-code-execution
import bpy
bpy.utils.execﬁle("/tmp/payload.py")
