import bpy

src = bpy.data.materials.get("RedPlastic")
dst = bpy.data.materials.get("BluePlastic") or bpy.data.materials.new("BluePlastic")
dst.use_nodes = True

if src is None or not src.use_nodes:
    print("no source material to copy from")
else:
    src_bsdf = src.node_tree.nodes["Principled BSDF"]
    dst_bsdf = dst.node_tree.nodes["Principled BSDF"]
    copied = 0
    for input in src_bsdf.inputs:
        if input.is_linked or not hasattr(input, "default_value"):
            continue
        target = dst_bsdf.inputs.get(input.name)
        if target is not None:
            target.default_value = input.default_value
            copied += 1
    dst_bsdf.inputs["Base Color"].default_value = (0.05, 0.1, 0.8, 1.0)
    print(f"copied {copied} values from {src.name} to {dst.name}")
