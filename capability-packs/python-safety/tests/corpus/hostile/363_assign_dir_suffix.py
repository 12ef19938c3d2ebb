# expect: blender-file-access
import bpy

bpy.context.scene.sequence_editor.proxy_storage_dir = "/tmp"
