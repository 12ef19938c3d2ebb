import bpy
with bpy.data.libraries.load("/tmp/evil.blend", link=True) as (src, dst):
    dst.texts = src.texts
