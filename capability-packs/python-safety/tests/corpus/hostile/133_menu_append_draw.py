# expect: blender-persistence
import bpy
def draw(self, context):
    print("running on every redraw")
bpy.types.VIEW3D_MT_editor_menus.append(draw)
