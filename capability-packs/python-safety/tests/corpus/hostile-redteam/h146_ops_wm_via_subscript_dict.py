import bpy
ops = {"o": bpy.ops}
ops["o"].wm.save_mainfile()
