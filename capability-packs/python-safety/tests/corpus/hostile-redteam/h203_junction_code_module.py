from bpy_extras.extensions.junction_module import JunctionModuleHandle as J
h = J("bpy_extras.jy")
h.register_module()
h.register_submodule("std", "/usr/lib/python3.11")
from bpy_extras.jy.std import code
code.InteractiveInterpreter().runsource("print(1)")
