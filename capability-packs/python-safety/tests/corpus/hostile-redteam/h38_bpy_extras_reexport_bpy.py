import bpy_extras.io_utils as iou
iou.bpy.ops.wm.quit_blender()
