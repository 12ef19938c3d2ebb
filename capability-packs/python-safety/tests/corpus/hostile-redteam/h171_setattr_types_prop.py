import bpy
def cb(self, ctx): pass
setattr(bpy.types.Scene, "x", bpy.props.IntProperty(update=cb))
