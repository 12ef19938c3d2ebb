# expect: blender-file-access
from bpy_extras.image_utils import load_image
img = load_image("/etc/passwd")
