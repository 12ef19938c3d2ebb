"""Is the add-on's own folder writable by this Blender? It must not be.

Security reasoning (issue 26, finding 1): a script that could write into the folder
that holds `capstan_bridge` (the folder on `sys.path`, the package, its `__pycache__`)
could plant a module there, or change one of capstan's own, and have it run at the
next import or the next launch, outside every layer of `execute_python`. The kernel
layer (Landlock, DESIGN §3a) and the file modes capstan installs the add-on with are
what make it read-only; this module only checks, and says so loudly when it is not.

The check is made by trying, not by `os.access`: root may write anywhere as far as
`access(2)` is concerned, and Landlock's rules are not consulted by it. In each folder
a file with a random name is created exclusively and removed at once; each file is
opened for appending (nothing is written, its content and times do not change).
"""

import os
import secrets
import sys

PACKAGE = "capstan_bridge"
MAX_LISTED = 5


def _can_create_in(folder):
    probe = os.path.join(folder, ".capstan-write-probe-%s" % secrets.token_hex(8))
    try:
        fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    except OSError:
        return False
    os.close(fd)
    try:
        os.unlink(probe)
    except OSError:
        pass
    return True


def _can_open_for_writing(path):
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return False
    os.close(fd)
    return True


def writable_places(folder):
    """What this process can change under `folder` (the folder on `sys.path`): the
    folder itself (a new module there is importable), its files, and the whole
    `capstan_bridge` package with its caches."""
    found = []
    if _can_create_in(folder):
        found.append(folder)
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        names = []
    for name in names:
        path = os.path.join(folder, name)
        if os.path.isfile(path) and not os.path.islink(path) and _can_open_for_writing(path):
            found.append(path)
    package = os.path.join(folder, PACKAGE)
    for root, dirs, files in os.walk(package):
        dirs.sort()
        if _can_create_in(root):
            found.append(root)
        for name in sorted(files):
            path = os.path.join(root, name)
            if not os.path.islink(path) and _can_open_for_writing(path):
                found.append(path)
    return found


def warn_if_writable(folder, stream=None):
    """Write a warning to stderr when anything under `folder` is writable; returns
    what was found."""
    found = writable_places(folder)
    if found:
        stream = stream or sys.stderr
        listed = ", ".join(found[:MAX_LISTED]) + (" and %d more" % (len(found) - MAX_LISTED) if len(found) > MAX_LISTED else "")
        stream.write(
            "capstan bridge: WARNING: this Blender can write into the add-on's own folder (%s): a script could plant "
            "a module there that runs at the next import or launch; capstan's kernel layer must make it read-only\n" % listed
        )
        stream.flush()
    return found
