"""python-hello: a capstan pack in Python (componentize-py), world capstan:pack@0.2.0.

Two capabilities, both through the host's bridge:
- pyhello.count_objects (read): how many objects of one type the scene holds
  (`get_scene_info` with a type filter);
- pyhello.create_marker (mutating): a named empty at a location (`create_object`,
  the command blender-core's scene.create_object sends).
"""

import json

from wit_world import exports
from componentize_py_types import Err
from wit_world.imports import bridge, log
from wit_world.imports.types import (
    Capability,
    Cue,
    Family,
    PackDescription,
    PackError_Bridge,
    PackError_Failed,
    PackError_InvalidArguments,
    PackError_UnknownCapability,
)

OBJECT_TYPES = [
    "MESH", "CURVE", "SURFACE", "META", "FONT", "CURVES", "POINTCLOUD", "VOLUME",
    "GREASEPENCIL", "ARMATURE", "LATTICE", "EMPTY", "LIGHT", "LIGHT_PROBE", "CAMERA", "SPEAKER",
]

COUNT_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "properties": {"kind": {"description": "Blender object type to count.", "enum": OBJECT_TYPES, "type": "string"}},
    "required": ["kind"],
    "additionalProperties": False,
}

COUNTED_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "properties": {"kind": {"type": "string", "enum": OBJECT_TYPES}, "count": {"type": "integer", "minimum": 0}},
    "required": ["kind", "count"],
    "additionalProperties": False,
}

MARKER_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "properties": {
        "name": {"description": "Exact name of the new empty.", "type": "string", "minLength": 1, "maxLength": 63},
        "location": {
            "description": "Where to put it, in metres (default the origin).",
            "type": "array",
            "items": {"type": "number"},
            "minItems": 3,
            "maxItems": 3,
        },
    },
    "required": ["name"],
    "additionalProperties": False,
}


def case(name, arguments, expect):
    return json.dumps({"name": name, "arguments": arguments, "expect": expect}, sort_keys=True)


CAPABILITIES = [
    Capability(
        key="pyhello.count_objects",
        family="inspect",
        summary="Count the scene's objects of one type (a Python pack).",
        description="Asks Blender for the objects of one type and answers how many there are.",
        input_schema=json.dumps(COUNT_SCHEMA, sort_keys=True),
        output_schema=json.dumps(COUNTED_SCHEMA, sort_keys=True),
        tags=["python", "count"],
        aliases=[],
        examples=["how many lights are in the scene, python pack"],
        mutates=False,
        destructive=False,
        bridge_commands=["get_scene_info"],
        conformance=[
            case("one light in the factory scene", {"kind": "LIGHT"}, {"result": {"kind": "LIGHT", "count": 1}}),
            case("no empties in the factory scene", {"kind": "EMPTY"}, {"result": {"count": 0}}),
        ],
    ),
    Capability(
        key="pyhello.create_marker",
        family="create",
        summary="Add a named empty as a marker (a Python pack).",
        description="Adds an empty with exactly this name at a location, through the same bridge command as scene.create_object.",
        input_schema=json.dumps(MARKER_SCHEMA, sort_keys=True),
        output_schema=None,
        tags=["python", "empty", "marker"],
        aliases=[],
        examples=["drop a marker empty named target, python pack"],
        mutates=True,
        destructive=False,
        bridge_commands=["create_object"],
        conformance=[
            case(
                "a marker is one new empty",
                {"name": "PyMarker", "location": [1, 2, 3]},
                {
                    "delta": {"added": ["PyMarker"]},
                    "result": {"name": "PyMarker", "location": [1, 2, 3]},
                    "reads": [{"key": "pyhello.count_objects", "arguments": {"kind": "EMPTY"}, "result": {"count": 1}}],
                },
            ),
        ],
    ),
]

FAMILIES = [
    Family(name="inspect", summary="Look at the scene", cues=[Cue(weight=3, phrases=["how many", "count"])]),
    Family(name="create", summary="Add objects to the scene", cues=[Cue(weight=3, phrases=["marker", "empty"])]),
]


def call_bridge(command, params):
    try:
        return json.loads(bridge.call("blender", command, json.dumps(params)))
    except Err as e:
        raise Err(PackError_Bridge(e.value))


def count_objects(args):
    kind = args.get("kind")
    if kind not in OBJECT_TYPES:
        raise Err(PackError_InvalidArguments(f"unknown object type {kind!r}"))
    scene = call_bridge("get_scene_info", {"type": kind, "limit": 1})
    total = scene["page"]["total"]
    log.log(log.Level.INFO, f"{total} objects of type {kind}")
    return {"kind": kind, "count": total}


def create_marker(args):
    name = args.get("name")
    if not isinstance(name, str) or not name:
        raise Err(PackError_InvalidArguments("name must be a non-empty string"))
    location = args.get("location", [0.0, 0.0, 0.0])
    made = call_bridge("create_object", {"type": "empty", "name": name, "location": [float(v) for v in location]})
    if made.get("name") != name:
        raise Err(PackError_Failed(f"Blender named the empty {made.get('name')!r}, not {name!r} (the name is taken)"))
    return {"name": made["name"], "type": made["type"], "location": made["location"]}


HANDLERS = {"pyhello.count_objects": count_objects, "pyhello.create_marker": create_marker}


class Pack(exports.Pack):
    def describe(self) -> PackDescription:
        return PackDescription(families=FAMILIES, capabilities=CAPABILITIES)

    def execute(self, key: str, arguments_json: str) -> str:
        handler = HANDLERS.get(key)
        if handler is None:
            raise Err(PackError_UnknownCapability(key))
        try:
            args = json.loads(arguments_json)
        except ValueError as e:
            raise Err(PackError_InvalidArguments(f"arguments are not JSON: {e}"))
        if not isinstance(args, dict):
            raise Err(PackError_InvalidArguments("arguments must be a JSON object"))
        return json.dumps(handler(args))
