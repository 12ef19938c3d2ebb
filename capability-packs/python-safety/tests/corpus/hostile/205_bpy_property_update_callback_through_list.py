# expect: blender-persistence
import bpy
def cb(self, context):
    print("later")
[bpy.types.Scene][0].foo = bpy.props.IntProperty(update=cb)
