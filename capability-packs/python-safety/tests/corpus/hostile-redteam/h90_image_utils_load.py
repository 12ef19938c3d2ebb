from bpy_extras.image_utils import load_image
load_image("/etc/passwd", place_holder=False)
