# expect: implicit-code
import bpy


class Report(dict):
    def items(self):
        bpy.ops.render.render(write_still=False)
        return super().items()


result = Report(count=1)
