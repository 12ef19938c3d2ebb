"""One declaration per command: the registry is discovered, the generated catalog is
current, and every declaration is well-formed."""

import json
import os
import subprocess
import sys

from capstan_bridge import command, errors
from capstan_bridge.core import schema

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
CATALOG = os.path.join(ROOT, "bridges", "blender", "capstan_bridge", "commands.json")


def test_the_generated_catalog_and_client_are_current():
    done = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "bridgegen.py"), "--check"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_the_registry_is_exactly_the_catalog():
    commands = command.discover()
    doc = json.load(open(CATALOG))
    assert set(commands) == set(doc["commands"])
    assert command.catalog_text(commands) == open(CATALOG).read()


def test_every_declaration_is_well_formed():
    validator = schema.Validator(schema.DEFINITIONS)
    for name, spec in command.discover().items():
        assert spec.effect in command.EFFECTS, name
        validator.check_keywords(spec.params, name)
        validator.check_keywords(spec.result_schema(), name)
        assert all(code in errors.CODES for code in spec.errors), name
        assert spec.params.get("additionalProperties") is False, "%s must refuse unknown params" % name
    effects = {n: s.effect for n, s in command.discover().items()}
    assert effects["get_scene_info"] == "read" and effects["delete_object"] == "destroy"


def test_without_drops_commands_for_skew_tests():
    commands = command.discover(without=["add_modifier"])
    assert "add_modifier" not in commands and "create_object" in commands
    assert command.catalog_sha256(commands) != command.catalog_sha256(command.discover())


def test_a_name_for_what_a_command_makes_says_it_is_new():
    """A command that makes an object names it with a `name` described as new: an agent
    (and capstan's planner) reads the description, and a plain "Name" was filled with
    an object the request only mentioned ("3D text ... above the cube" named it Cube)."""
    makers = ("create_curve", "create_mesh", "create_text", "create_terrain", "scatter_instances", "build_road", "place_proxy", "ghost_copy")
    commands = command.discover()
    for name in makers:
        description = commands[name].params["properties"]["name"].get("description", "")
        assert description.lower().startswith("name for the new "), "%s: %r" % (name, description)
