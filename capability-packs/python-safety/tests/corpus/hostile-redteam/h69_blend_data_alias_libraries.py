import bpy
d = bpy.context.blend_data
d.libraries.write("/tmp/out.blend", set(d.objects))
