import bpy
def draw(self, context):
    self.layout.label(text="hi")
bpy.types.VIEW3D_MT_object.append(draw)
