import bpy


class LayerKey:
    def __init__(self, priority, name):
        self._priority = priority
        self._name = name

    def __eq__(self, other):
        return (self._priority, self._name) == (other._priority, other._name)

    def __lt__(self, other):
        return (self._priority, self._name) < (other._priority, other._name)

    def __repr__(self):
        return f"LayerKey({self._priority}, {self._name!r})"


PRIORITY = {'CAMERA': 0, 'LIGHT': 1, 'MESH': 2}
keys = sorted(LayerKey(PRIORITY.get(o.type, 9), o.name) for o in bpy.context.scene.objects)
for k in keys:
    print(k)
