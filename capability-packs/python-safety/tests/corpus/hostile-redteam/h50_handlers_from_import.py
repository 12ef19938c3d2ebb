from bpy.app import handlers as H
def cb(scene, depsgraph=None): pass
H.depsgraph_update_post.append(cb)
