# expect: blender-value-escape
import bpy

cat = getattr(bpy.ops, "render")
cat.render(write_still=True)
