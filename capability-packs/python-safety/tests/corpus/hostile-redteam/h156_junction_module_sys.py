from bpy_extras.extensions import junction_module as jm
jm.sys.modules["os"].system("id")
