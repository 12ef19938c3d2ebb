import bpy

source = bpy.context.active_object
targets = [o for o in bpy.context.selected_objects if o is not source]

if source is None:
    print("select a source object first")
else:
    for target in targets:
        for attr in ("location", "rotation_euler", "scale"):
            setattr(target, attr, getattr(source, attr).copy())
        print("matched", target.name, "to", source.name)
