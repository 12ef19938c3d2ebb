"""The per-session output directory, and confinement of every file path to it.

A command that writes a file (a render, an export) takes a plain file name, never a
path: the name is joined to this session's output directory and the result must still
be inside it after resolving links. Anything else is refused.
"""

import os
import time

from . import runtime_file


class PathRefused(Exception):
    pass


def session_output_dir():
    override = os.environ.get("CAPSTAN_BRIDGE_OUTPUT_DIR")
    if override:
        folder = os.path.abspath(override)
    else:
        session = "%s-%d" % (time.strftime("%Y%m%d-%H%M%S"), os.getpid())
        folder = os.path.join(runtime_file.capstan_home(), "output", "blender", session)
    os.makedirs(folder, mode=0o700, exist_ok=True)
    return os.path.realpath(folder)


def confined(output_dir, filename):
    if not filename or os.path.isabs(filename) or "/" in filename or "\\" in filename or filename in (".", ".."):
        raise PathRefused("%r must be a plain file name; files are written to the session output directory" % filename)
    path = os.path.realpath(os.path.join(output_dir, filename))
    if os.path.dirname(path) != os.path.realpath(output_dir):
        raise PathRefused("%r resolves outside the session output directory" % filename)
    return path
