# expect: blender-persistence
import bpy
def on_load(*_):
    print("still here")
bpy.app.handlers.load_post.append(on_load)
