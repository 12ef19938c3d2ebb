# expect: blender-file-access
import bpy

bpy.ops.poselib.create_pose_asset(catalog_path="x")
