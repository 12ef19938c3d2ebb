# expect: blender-persistence
import bpy
bpy.types.Object.spy = bpy.props.FloatProperty(update=lambda self, ctx: print(self.name))
