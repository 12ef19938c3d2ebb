import bpy
class P(bpy.types.Panel):
    bl_label = "p"; bl_space_type = "VIEW_3D"; bl_region_type = "UI"
    def draw(self, context): pass
register, unregister = bpy.utils.register_classes_factory((P,))
register()
