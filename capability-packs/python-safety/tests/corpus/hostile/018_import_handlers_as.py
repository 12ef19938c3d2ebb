# expect: blender-persistence
import bpy.app.handlers as h
h.load_post.append(lambda *a: print("pwned on every load"))
