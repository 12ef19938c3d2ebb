import bpy


class TransformSnapshot:
    """Remembers object transforms so a layout experiment can be undone."""

    def __init__(self, objects):
        self.objects = list(objects)
        self.saved = {}

    def save(self):
        self.saved = {
            o.name: (o.location.copy(), o.rotation_euler.copy(), o.scale.copy())
            for o in self.objects
        }
        return len(self.saved)

    def restore(self):
        for o in self.objects:
            if o.name in self.saved:
                o.location, o.rotation_euler, o.scale = self.saved[o.name]


selected = bpy.context.selected_objects or list(bpy.context.scene.objects)
snap = TransformSnapshot(selected)
print("saved", snap.save(), "transforms")

for o in selected:
    o.location.z += 1.0

snap.restore()
print("restored:", [o.name for o in selected])
