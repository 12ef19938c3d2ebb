import bpy
box = {"a": bpy.app}
def cb(*_): print("persisted")
box["a"].handlers.load_post.append(cb)
