# expect: blender-file-access
import bpy
bpy.utils.extension_path_user("bl_ext.user_default.x", path="../../../../../../tmp/x", create=True)
