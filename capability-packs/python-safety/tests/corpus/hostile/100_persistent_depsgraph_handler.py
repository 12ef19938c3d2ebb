# expect: blender-persistence
from bpy.app.handlers import persistent, depsgraph_update_post
@persistent
def spy(scene, depsgraph):
    print(scene.name)
depsgraph_update_post.append(spy)
