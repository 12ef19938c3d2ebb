import bpy
class HelloPanel(bpy.types.Panel):
    bl_label = "Hello"; bl_space_type = 'VIEW_3D'; bl_region_type = 'UI'
    def draw(self, context):
        self.layout.label(text="persisted")
reg, _ = bpy.utils.register_classes_factory([HelloPanel])
reg()
