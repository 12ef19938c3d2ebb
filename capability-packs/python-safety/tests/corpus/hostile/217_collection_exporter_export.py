# expect: blender-file-access
import bpy
bpy.ops.collection.exporter_add(name="IO_FH_fbx")
bpy.ops.collection.exporter_export(index=0)
