from bpy_extras import io_utils
io_utils.path_reference_copy([("/etc/passwd", "/tmp/stolen.txt")])
