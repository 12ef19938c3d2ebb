import bpy
def get_ops():
    return bpy.ops
get_ops().wm.quit_blender()
