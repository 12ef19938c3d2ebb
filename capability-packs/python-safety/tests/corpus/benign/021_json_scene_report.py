import bpy
import json

scene = bpy.context.scene
report = {
    "scene": scene.name,
    "frame_range": [scene.frame_start, scene.frame_end],
    "engine": scene.render.engine,
    "resolution": [scene.render.resolution_x, scene.render.resolution_y],
    "objects": [
        {
            "name": o.name,
            "type": o.type,
            "location": [round(c, 3) for c in o.location],
            "materials": [s.material.name for s in o.material_slots if s.material],
        }
        for o in scene.objects
    ],
}

print(json.dumps(report, indent=2, sort_keys=True))
