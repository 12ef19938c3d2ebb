"""The catalog is the one source of truth: the add-on implements exactly its commands,
and the validator understands every keyword it uses."""

import json

import pytest

from capstan_bridge import catalog
from capstan_bridge.commands import REGISTRY


def test_every_catalog_command_is_implemented_and_nothing_else():
    cat = catalog.Catalog.load()
    assert set(REGISTRY) == set(cat.commands)


def _walk(schema, path):
    yield path, schema
    for key in ("properties",):
        for name, sub in schema.get(key, {}).items():
            yield from _walk(sub, "%s/%s" % (path, name))
    if isinstance(schema.get("items"), dict):
        yield from _walk(schema["items"], path + "/items")


def test_the_validator_knows_every_keyword_the_catalog_uses():
    doc = json.load(open(catalog.CATALOG_PATH))
    schemas = [("definitions/" + k, v) for k, v in doc["definitions"].items()]
    schemas += [("commands/" + k, v["params"]) for k, v in doc["commands"].items()]
    for root, schema in schemas:
        for path, node in _walk(schema, root):
            unknown = set(node) - catalog._KNOWN
            assert not unknown, "%s uses %s" % (path, unknown)


def test_effects_are_declared():
    cat = catalog.Catalog.load()
    for name, spec in cat.commands.items():
        assert spec["effect"] in ("read", "mutate", "destroy"), name
    assert cat.effect("get_scene_info") == "read"
    assert cat.effect("delete_object") == "destroy"


@pytest.mark.parametrize(
    "command,params,fragment",
    [
        ("create_object", {"type": "teapot"}, "not one of"),
        ("create_object", {"type": "cube", "location": [0, 0]}, "at least 3"),
        ("create_object", {"type": "cube", "evil": 1}, "unknown property"),
        ("create_object", {}, "'type' is required"),
        ("set_material", {"object": "A", "base_color": [2, 0, 0, 1]}, "more than"),
        ("modify_object", {"name": "A"}, "at least 2 properties"),
        ("render_image", {"filename": "../escape.png"}, "does not match"),
        ("insert_keyframe", {"object": "A", "property": "location", "frame": 1.5}, "expected integer"),
        ("get_object_info", {"name": ""}, "shorter than"),
    ],
)
def test_bad_params_are_explained(command, params, fragment):
    errors = catalog.Catalog.load().validate(command, params)
    assert any(fragment in e for e in errors), errors


def test_good_params_pass():
    cat = catalog.Catalog.load()
    assert cat.validate("create_object", {"type": "cube", "name": "A", "location": [0, 0, 1], "scale": [1, 2, 3]}) == []
    assert cat.validate("insert_keyframe", {"object": "A", "property": "hide_render", "frame": 3, "value": True}) == []
