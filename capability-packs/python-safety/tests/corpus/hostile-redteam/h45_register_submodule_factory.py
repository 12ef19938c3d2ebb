import bpy
reg, unreg = bpy.utils.register_submodule_factory("os", ["path"])
reg()
