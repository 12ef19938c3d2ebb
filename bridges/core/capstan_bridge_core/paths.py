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


def session_output_dir(app):
    """This session's output folder: CAPSTAN_BRIDGE_OUTPUT_DIR, or
    `$CAPSTAN_HOME/output/<app>/<time>-<pid>`."""
    override = os.environ.get("CAPSTAN_BRIDGE_OUTPUT_DIR")
    if override:
        folder = os.path.abspath(override)
    else:
        session = "%s-%d" % (time.strftime("%Y%m%d-%H%M%S"), os.getpid())
        folder = os.path.join(runtime_file.capstan_home(), "output", app, session)
    os.makedirs(folder, mode=0o700, exist_ok=True)
    return os.path.realpath(folder)


def confined(output_dir, filename):
    if not filename or os.path.isabs(filename) or "/" in filename or "\\" in filename or filename in (".", ".."):
        raise PathRefused("%r must be a plain file name; files are written to the session output directory" % filename)
    path = os.path.realpath(os.path.join(output_dir, filename))
    if os.path.dirname(path) != os.path.realpath(output_dir):
        raise PathRefused("%r resolves outside the session output directory" % filename)
    return path


# -- input files: read roots ----------------------------------------------------------
#
# A command that reads a file (an image texture, an HDRI) takes a path that must lie
# under a read root: the session output directory (always, so a render or a bake of
# this session can be used again) and the folders listed in CAPSTAN_READ_ROOTS
# (os.pathsep-separated absolute folders), read once when the bridge starts. A bare file
# name means a file in the session output directory; any other path must be absolute,
# must not contain a `..` component, and must still be under a root after symlinks are
# resolved. See bridges/blender/docs/inputs.md. Every app's bridge enforces this one policy
# (FreeCAD's import_cad included): it lives here, in the shared core, once.

READ_ROOTS_ENV = "CAPSTAN_READ_ROOTS"
MAX_INPUT_PATH = 1024

_configured_roots = None


class InputMissing(Exception):
    """The path is allowed, but no such file exists."""


def configure_read_roots(environ=None):
    """Read CAPSTAN_READ_ROOTS (called when the bridge starts). Entries that are not
    absolute paths of existing folders are ignored; returns the roots kept (real paths)."""
    global _configured_roots
    value = (os.environ if environ is None else environ).get(READ_ROOTS_ENV, "")
    roots = []
    for entry in value.split(os.pathsep):
        entry = entry.strip()
        if not entry or not os.path.isabs(entry):
            continue
        real = os.path.realpath(entry)
        if os.path.isdir(real) and real not in roots:
            roots.append(real)
    _configured_roots = tuple(roots)
    return _configured_roots


def read_roots(output_dir):
    """Every folder inputs may come from: the session output directory first."""
    if _configured_roots is None:
        configure_read_roots()
    first = [os.path.realpath(output_dir)] if output_dir else []
    return tuple(first + [r for r in _configured_roots if r not in first])


def inside(path, root):
    """Whether the real path `path` is `root` or lies under it (both already resolved)."""
    return path == root or os.path.commonpath([path, root]) == root


def readable(output_dir, path, extensions=()):
    """The real path of an input file that may be read, else PathRefused (outside the
    roots, relative, `..`, wrong extension) or InputMissing (allowed but absent)."""
    if not isinstance(path, str) or not path or len(path) > MAX_INPUT_PATH or "\x00" in path:
        raise PathRefused("an input path must be a non-empty string of at most %d characters" % MAX_INPUT_PATH)
    parts = path.replace("\\", "/").split("/")
    if ".." in parts:
        raise PathRefused("%r contains '..'; give an absolute path under a read root" % path)
    if not os.path.isabs(path):
        if len(parts) != 1 or path == ".":
            raise PathRefused("%r is relative; give an absolute path under a read root, or a bare file name of the session output directory" % path)
        path = os.path.join(output_dir, path)
    if extensions and not path.lower().endswith(tuple(extensions)):
        raise PathRefused("%r is not one of %s" % (path, ", ".join(extensions)))
    real = os.path.realpath(path)
    roots = read_roots(output_dir)
    if not any(inside(real, root) for root in roots):
        raise PathRefused("%r is outside the read roots (the session output directory and %s)" % (path, READ_ROOTS_ENV))
    if not os.path.isfile(real):
        raise InputMissing("no file at %r" % path)
    return real


# -- as commands answer ------------------------------------------------------------------

def checked_input(output_dir, path, extensions=()):
    """`readable`, with its refusals as the declared codes every bridge answers with:
    `path_refused` (outside the read roots, relative, `..`, wrong extension) and
    `not_found` (allowed, but no such file)."""
    from .errors import CommandError

    try:
        return readable(output_dir, path, extensions)
    except PathRefused as e:
        raise CommandError("path_refused", str(e))
    except InputMissing as e:
        raise CommandError("not_found", str(e))


def checked_output(output_dir, filename):
    """`confined`, with its refusal as `path_refused`."""
    from .errors import CommandError

    try:
        return confined(output_dir, filename)
    except PathRefused as e:
        raise CommandError("path_refused", str(e))
