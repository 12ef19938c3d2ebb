import bpy

C = bpy.context
D = bpy.data


def summarize(context):
    scene = context.scene
    return {"scene": scene.name, "frames": (scene.frame_start, scene.frame_end)}


print(summarize(bpy.context))
for obj in D.objects:
    if obj.type == "MESH":
        print(obj.name, len(obj.data.vertices))
C.scene.frame_end = 120
names = [o.name for o in D.objects]
for attr in ("location", "rotation_euler", "scale"):
    print(attr, tuple(getattr(C.scene.objects[0], attr)) if C.scene.objects else None)
