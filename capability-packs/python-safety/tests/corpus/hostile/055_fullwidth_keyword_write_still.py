# expect: blender-file-access
import bpy
bpy.ops.render.render(ｗｒｉｔｅ_still=True)
