"""The add-on's validator agrees with the host's on the shared vectors, fails closed
on keywords outside the subset, and normalises integral floats for Blender."""

import json
import os

import pytest

from capstan_bridge.core import schema

VECTORS = json.load(open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "schema_vectors.json")))["vectors"]
VALIDATOR = schema.Validator(schema.DEFINITIONS)


@pytest.mark.parametrize("vector", VECTORS, ids=[v["name"] for v in VECTORS])
def test_shared_vectors(vector):
    for value in vector["valid"]:
        assert VALIDATOR.errors(vector["schema"], value) == [], (vector["name"], value)
    for value in vector["invalid"]:
        assert VALIDATOR.errors(vector["schema"], value) != [], (vector["name"], value)


def test_unknown_keywords_fail_closed():
    with pytest.raises(schema.SchemaError):
        VALIDATOR.errors({"type": "string", "format": "email"}, "x")
    with pytest.raises(schema.SchemaError):
        VALIDATOR.check_keywords({"type": "object", "properties": {"a": {"uniqueItems": True}}})
    with pytest.raises(schema.SchemaError):
        VALIDATOR.errors({"$ref": "#/$defs/nope"}, 1)


def test_integral_floats_become_ints_where_the_schema_says_integer():
    s = schema.obj({"frame": schema.integer(), "xs": schema.array(schema.integer()), "f": schema.number()})
    out = VALIDATOR.normalize(s, {"frame": 3.0, "xs": [1.0, 2], "f": 1.0})
    assert out == {"frame": 3, "xs": [1, 2], "f": 1.0}
    assert type(out["frame"]) is int and type(out["f"]) is float
