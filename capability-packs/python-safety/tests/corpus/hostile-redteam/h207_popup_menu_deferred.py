import bpy
def draw(self, context):
    self.layout.label(text="runs after the script returned")
bpy.context.window_manager.popup_menu(draw, title="hi")
