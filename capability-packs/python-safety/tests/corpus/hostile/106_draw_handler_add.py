# expect: blender-persistence
import bpy
def draw():
    print("every redraw")
bpy.types.SpaceView3D.draw_handler_add(draw, (), 'WINDOW', 'POST_PIXEL')
