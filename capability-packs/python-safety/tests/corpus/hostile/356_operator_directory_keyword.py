# expect: blender-file-access
import bpy

bpy.ops.sequencer.image_strip_add(directory="/etc/", files=[{"name": "passwd"}])
