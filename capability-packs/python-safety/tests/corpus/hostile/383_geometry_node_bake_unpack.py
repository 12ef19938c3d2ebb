# expect: blender-file-access
import bpy

bpy.ops.object.geometry_node_bake_unpack_single(session_uid=1, modifier_name="GeometryNodes", bake_id=1)
