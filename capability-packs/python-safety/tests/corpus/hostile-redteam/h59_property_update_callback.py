import bpy
def cb(self, context): print("runs on every change")
bpy.types.Scene.evil = bpy.props.FloatProperty(update=cb)
