# expect: blender-code-execution
from bpy.ops import wm as window
window.read_factory_settings()
