import bpy
bpy.app.icons.new_triangles_from_file("/etc/passwd")
