# expect: blender-persistence
import bpy
def cb(self, context):
    print("later")
type(bpy.context.scene).foo = bpy.props.IntProperty(update=cb)
