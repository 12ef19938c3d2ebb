import bpy, fractions
get = fractions.operator.attrgetter("wm.quit_blender")
get(bpy.ops)()
