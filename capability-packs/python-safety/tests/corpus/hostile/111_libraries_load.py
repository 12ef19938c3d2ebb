# expect: blender-file-access
import bpy
with bpy.data.libraries.load("/tmp/evil.blend", link=False) as (src, dst):
    dst.texts = src.texts
