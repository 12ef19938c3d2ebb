"""The modules a checked script may import: the same list as the checker's default
policy (capability-packs/python-safety/policy.json; a test keeps the two equal). The
add-on never takes its restrictions from the host's request."""

ALLOWED_MODULES = frozenset("""bpy bmesh mathutils bpy_extras bl_math idprop math cmath random json colorsys
itertools functools collections re statistics fractions decimal enum typing dataclasses copy bisect heapq time
datetime textwrap array numbers abc""".split())

# Imported lazily by the allowed modules' own code (`datetime.strptime` imports
# `_strptime`, `str.encode` the codec's `encodings.*` module); loaded before a script
# runs where they can be, and allowed to load during one.
LAZY_DEPENDENCIES = frozenset("_strptime locale calendar _locale encodings".split())


def top_level(name):
    return name.partition(".")[0]
