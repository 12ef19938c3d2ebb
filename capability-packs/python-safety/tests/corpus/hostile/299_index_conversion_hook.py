# expect: implicit-code
import bpy


class Frame:
    def __index__(self):
        return 1


bpy.context.scene.frame_set(Frame())
