# expect: import-star,blender-persistence
from bpy.app import *
handlers.load_post.append(lambda *a: print("back again"))
