"""The one table of what differs between the Blender lines capstan is tested on
(4.5 LTS and 5.2 LTS): socket names and enum items that were renamed, and enum items
and properties only one line has. Every command that takes a socket name or an enum
item from an agent reads it here, so a name given in either line's words works in both
and an item this Blender lacks is refused naming the line that has it.

Found by comparing the RNA of both lines (enum items of the render, image format,
Cycles, EEVEE, view layer, light, object, camera, material, rigid body, text and FFmpeg
types) and by the node commands; add a row here when a new difference shows up.
Nothing here imports bpy.
"""

# Socket names Blender 5.0 changed (the identifiers stayed): a name given in either
# version's words finds the socket in both.
RENAMED_SOCKETS = {"Fac": "Factor", "Factor": "Fac", "Bright": "Brightness", "Brightness": "Bright"}

# Enum items renamed between the lines, per (RNA struct, property): an item given in
# either line's words sets the same choice in both.
RENAMED_ENUM_ITEMS = {
    ("BooleanModifier", "solver"): {"FLOAT": "FAST", "FAST": "FLOAT"},
    # EEVEE is BLENDER_EEVEE_NEXT in 4.2-4.5 and BLENDER_EEVEE again from 5.0.
    ("RenderSettings", "engine"): {"BLENDER_EEVEE_NEXT": "BLENDER_EEVEE", "BLENDER_EEVEE": "BLENDER_EEVEE_NEXT"},
}

# Enum items only one tested line has: (struct, property) -> {item: the line that has it}.
LINE_ONLY_ENUM_ITEMS = {
    ("ImageFormatSettings", "file_format"): {"AVIF": "5.2 LTS"},
    ("ImageFormatSettings", "exr_codec"): {"HTJ2K": "5.2 LTS"},
    ("RenderSettings", "hair_type"): {"CYLINDER": "5.2 LTS"},
    ("SceneEEVEE", "shadow_pool_size"): {"1536": "5.2 LTS", "2048": "5.2 LTS"},
    ("FFmpegSettings", "constant_rate_factor"): {"CUSTOM": "5.2 LTS"},
}

# Properties only one tested line has: (struct, property) -> the line that has it.
LINE_ONLY_PROPERTIES = {
    ("ImageFormatSettings", "media_type"): "5.2 LTS",
    ("TextCurve", "fill_solver"): "5.2 LTS",
    ("TextCurve", "fill_rule"): "5.2 LTS",
    ("RenderSettings", "bake_type"): "4.5 LTS",
    ("RenderSettings", "bake_margin_type"): "4.5 LTS",
    ("CyclesRenderSettings", "feature_set"): "4.5 LTS",
}


def enum_item(struct, prop, item, items):
    """The item `items` (this Blender's) has for `item`: itself, or its other line's name."""
    if item in items:
        return item
    other = RENAMED_ENUM_ITEMS.get((struct, prop), {}).get(item)
    return other if other in items else item


def missing_item_note(struct, prop, item):
    """' (an item of Blender 5.2 LTS)' when another tested line has `item`, else ''."""
    line = LINE_ONLY_ENUM_ITEMS.get((struct, prop), {}).get(item)
    return " (%r is an item of Blender %s only)" % (item, line) if line else ""


def missing_property_note(struct, prop):
    line = LINE_ONLY_PROPERTIES.get((struct, prop))
    return " (%s.%s exists in Blender %s only)" % (struct, prop, line) if line else ""


# Enum items that need another setting first in one line: (struct, property) ->
# {item: (property, value)}, "*" for every other item. From 5.0 the image format's
# `media_type` decides which file formats exist (multilayer EXR and video are media types
# of their own); 4.5 has no media_type and takes every format directly.
PREREQUISITES = {
    ("ImageFormatSettings", "file_format"): {
        "OPEN_EXR_MULTILAYER": ("media_type", "MULTI_LAYER_IMAGE"),
        "FFMPEG": ("media_type", "VIDEO"),
        "*": ("media_type", "IMAGE"),
    },
}


def prerequisite(struct, prop, item):
    """(property, value) to set before `item` on a struct with that property, or None."""
    rows = PREREQUISITES.get((struct, prop))
    if not rows or not isinstance(item, str):
        return None
    return rows.get(item, rows.get("*"))
