import bpy
import bl_math

objs = sorted((o for o in bpy.context.scene.objects if o.type == 'MESH'), key=lambda o: o.location.x)
n = len(objs)
for i, obj in enumerate(objs):
    t = i / (n - 1) if n > 1 else 0.0
    s = bl_math.lerp(0.5, 1.5, bl_math.smoothstep(0.0, 1.0, t))
    obj.scale = (s, s, s)
    obj.location.z = bl_math.clamp(obj.location.z, 0.0, 10.0)
    print(f"{obj.name}: t={t:.2f} scale={s:.2f}")
