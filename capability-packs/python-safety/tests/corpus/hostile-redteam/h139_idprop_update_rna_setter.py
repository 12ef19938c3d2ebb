import bpy
def getter(self): return 0
bpy.types.Object.g = bpy.props.IntProperty(get=getter)
