import bpy
libs = bpy.data.path_resolve("libra" + "ries")
libs.write("/tmp/dump.blend", set(bpy.data.objects))
