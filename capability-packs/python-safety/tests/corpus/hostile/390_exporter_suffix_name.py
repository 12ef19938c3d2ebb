# expect: blender-file-access
import bpy

bpy.ops.uv.export_layout()
bpy.ops.collection.exporter_export(index=0)
