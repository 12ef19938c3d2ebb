# expect: blender-file-access
import bpy
bpy.data.libraries.write("/root/.bashrc", {bpy.context.scene})
