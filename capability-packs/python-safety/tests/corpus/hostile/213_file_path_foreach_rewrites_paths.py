# expect: blender-file-access
import bpy
bpy.data.file_path_foreach(lambda idb, path, meta: "/etc/shadow", visit_types={"IMAGE"})
for im in bpy.data.images:
    im.pack()
