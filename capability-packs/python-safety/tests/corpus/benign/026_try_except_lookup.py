import bpy

wanted = ["Cube", "Light", "Camera", "Table"]
found, missing = [], []

for name in wanted:
    try:
        obj = bpy.data.objects[name]
    except KeyError:
        missing.append(name)
        continue
    else:
        found.append(obj)
    finally:
        print("checked", name)

try:
    ratio = len(found) / len(wanted)
except ZeroDivisionError:
    ratio = 0.0

for obj in found:
    obj.hide_viewport = False

print(f"found {len(found)}, missing {missing}, ratio {ratio:.0%}")
