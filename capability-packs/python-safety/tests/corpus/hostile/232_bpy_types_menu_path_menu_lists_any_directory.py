# expect: blender-python-class
import bpy
class Layout:
    def __init__(self):
        self.seen = []
    def operator(self, op, text="", **kw):
        self.seen.append(text)
        return self
class Fake:
    layout = Layout()
    bl_idname = "x"
bpy.types.Menu.path_menu(Fake(), ["/root"], "x")
