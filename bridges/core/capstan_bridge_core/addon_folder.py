"""Is the bridge's own folder writable by the app that runs it? It must not be.

Security reasoning (issue 26, finding 1): a script that could write into the folder
that holds the bridge's package (`capstan_bridge`, `capstan_freecad`: the folder on
`sys.path`, the package, the shared core it holds, its `__pycache__`)
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


def writable_places(folder, package_name):
    """What this process can change under `folder` (the folder on `sys.path`): the
    folder itself (a new module there is importable), its files, and the whole
    package `package_name` with its caches (a linked folder in it, such as the shared
    core in a source tree, is followed)."""
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
    package = os.path.join(folder, package_name)
    for root, dirs, files in os.walk(package, followlinks=True):
        dirs.sort()
        if _can_create_in(root):
            found.append(root)
        for name in sorted(files):
            path = os.path.join(root, name)
            if not os.path.islink(path) and _can_open_for_writing(path):
                found.append(path)
    return found


def warn_if_writable(folder, package_name, app_name, stream=None):
    """Write a warning to stderr when anything under `folder` is writable; returns
    what was found."""
    found = writable_places(folder, package_name)
    if found:
        stream = stream or sys.stderr
        listed = ", ".join(found[:MAX_LISTED]) + (" and %d more" % (len(found) - MAX_LISTED) if len(found) > MAX_LISTED else "")
        stream.write(
            "capstan bridge: WARNING: this %s can write into the add-on's own folder (%s): a script could plant "
            "a module there that runs at the next import or launch; capstan's kernel layer must make it read-only\n" % (app_name, listed)
        )
        stream.flush()
    return found
