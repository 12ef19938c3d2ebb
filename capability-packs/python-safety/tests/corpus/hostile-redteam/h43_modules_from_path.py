import bpy
bpy.utils.modules_from_path("/tmp/evil_dir", set())
