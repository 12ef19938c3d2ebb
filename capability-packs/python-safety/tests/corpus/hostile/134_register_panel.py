# expect: blender-persistence
import bpy
class SPY_PT_panel(bpy.types.Panel):
    bl_label = "Spy"
    bl_space_type = 'VIEW_3D'
    bl_region_type = 'UI'
    def draw(self, context):
        print(context.scene.name)
bpy.utils.register_class(SPY_PT_panel)
