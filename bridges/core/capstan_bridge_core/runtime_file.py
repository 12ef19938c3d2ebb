"""The runtime file: how the host finds this bridge.

Written atomically (temp file in the same folder, fsync, rename) with mode 0600 so a
reader never sees a half-written file and no other user can read the token. Removed
on clean exit. Its default path is `$CAPSTAN_HOME/run/<app>/server.json` (`<app>` is
the app's name: `blender`, `freecad`), with CAPSTAN_HOME resolved exactly as the host
does (default `~/.capstan`), so both sides agree on the path without anyone writing it
down. App-specific fields (Blender's `exec_key`) come from the app (`extra`).

Ownership (the same rule the host applies before it believes the file): CAPSTAN_HOME
(when the file lies under it), the file's folder and an existing runtime file must be
owned by the user the app runs as and writable by nobody else. Otherwise another user
could replace the file (or the folder) and point capstan at their own listener, so the
bridge refuses to publish there (`UntrustedLocation`, naming the path and the reason).
Only those three are checked, not their ancestors. Folders the bridge creates are
created owner-only, one by one, and everything below CAPSTAN_HOME is reached through
directory descriptors without following symlinks (`_trusted_folder`), so what is
checked is what is written to.
"""

import json
import os
import secrets
import stat


class UntrustedLocation(OSError):
    """The runtime file may not be written (or believed) where it is."""


def capstan_home():
    home = os.environ.get("CAPSTAN_HOME")
    if home:
        return os.path.abspath(home)
    return os.path.join(os.path.expanduser("~"), ".capstan")


def default_path(app):
    return os.path.join(capstan_home(), "run", app, "server.json")


def check_private(st, what, path):
    """Refuse `st` unless this user owns it and no one else may write to it."""
    if hasattr(os, "geteuid") and st.st_uid != os.geteuid():
        raise UntrustedLocation(
            "%s %s is owned by uid %d, not by this user (uid %d); another user could replace the runtime file" % (what, path, st.st_uid, os.geteuid())
        )
    if stat.S_IMODE(st.st_mode) & 0o022:
        raise UntrustedLocation(
            "%s %s is writable by other users (mode %o); run `chmod go-w %s` or use a private CAPSTAN_HOME" % (what, path, stat.S_IMODE(st.st_mode), path)
        )


_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
# Descriptor-relative calls exist on Unix; elsewhere (Windows, where owners and mode
# bits are not what guards a folder) the file is written by path as before.
_BY_DESCRIPTOR = os.name == "posix" and {os.open, os.mkdir, os.stat, os.rename, os.unlink} <= os.supports_dir_fd


def _open_or_create(name, parent_fd):
    """Open the folder `name` in `parent_fd` (never through a symlink), creating it
    owner-only when it is missing."""
    try:
        return os.open(name, _DIR_FLAGS | _NOFOLLOW, dir_fd=parent_fd)
    except FileNotFoundError:
        try:
            os.mkdir(name, 0o700, dir_fd=parent_fd)
        except FileExistsError:
            pass
        return os.open(name, _DIR_FLAGS | _NOFOLLOW, dir_fd=parent_fd)


def _trusted_folder(folder, create):
    """A descriptor of `folder`, checked; CAPSTAN_HOME is checked first and the folders
    below it are walked by descriptor when `folder` lies under it."""
    home = capstan_home()
    rel = os.path.relpath(folder, home)
    below_home = not (rel == os.pardir or rel.startswith(os.pardir + os.sep) or os.path.isabs(rel))
    if not below_home:
        if create:
            os.makedirs(folder, mode=0o700, exist_ok=True)
        fd = os.open(folder, _DIR_FLAGS)
        try:
            check_private(os.fstat(fd), "the runtime file's folder", folder)
        except BaseException:
            os.close(fd)
            raise
        return fd
    if create and not os.path.isdir(home):
        _make_home(home)
    fd = os.open(home, _DIR_FLAGS)
    try:
        check_private(os.fstat(fd), "CAPSTAN_HOME", home)
        if rel != os.curdir:
            parts = rel.split(os.sep)
            for i, part in enumerate(parts):
                child = _open_or_create(part, fd) if create else os.open(part, _DIR_FLAGS | _NOFOLLOW, dir_fd=fd)
                os.close(fd)
                fd = child
                # Every folder on the way is checked, not only the last: one that others
                # could write would let them swap the folders below it.
                if i + 1 < len(parts):
                    check_private(os.fstat(fd), "the folder on the way to the runtime file", os.path.join(home, *parts[: i + 1]))
            check_private(os.fstat(fd), "the runtime file's folder", folder)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _make_home(home):
    """Create CAPSTAN_HOME and its missing parents owner-only (os.makedirs would give
    the parents the umask's mode, which may let the group write)."""
    missing = []
    path = home
    while not os.path.isdir(path):
        missing.append(path)
        parent = os.path.dirname(path)
        if parent == path:
            break
        path = parent
    for path in reversed(missing):
        try:
            os.mkdir(path, 0o700)
        except FileExistsError:
            pass


def _check_existing(name, folder_fd, path):
    """An existing runtime file must be ours too (and a plain file, not a link)."""
    try:
        st = os.stat(name, dir_fd=folder_fd, follow_symlinks=False)
    except FileNotFoundError:
        return
    if not stat.S_ISREG(st.st_mode):
        raise UntrustedLocation("the runtime file %s is not a regular file (a symlink or something else was put there)" % path)
    check_private(st, "the runtime file", path)


def write(path, port, token, app_version, extra=None):
    folder, name = os.path.split(path)
    doc = {
        "http": "http://127.0.0.1:%d" % port,
        "token": token,
        "pid": os.getpid(),
        "protocol": 1,
        "app_version": app_version,
    }
    doc.update(extra or {})
    if not _BY_DESCRIPTOR:
        _write_by_path(path, doc)
        return
    folder_fd = _trusted_folder(folder, create=True)
    try:
        _check_existing(name, folder_fd, path)
        tmp = ".server-%s.json" % secrets.token_hex(8)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o600, dir_fd=folder_fd)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(doc, f)
                f.flush()
                os.fsync(f.fileno())
            # POSIX rename replaces the target atomically.
            os.rename(tmp, name, src_dir_fd=folder_fd, dst_dir_fd=folder_fd)
        except BaseException:
            try:
                os.unlink(tmp, dir_fd=folder_fd)
            except OSError:
                pass
            raise
        try:
            os.fsync(folder_fd)
        except OSError:
            pass
    finally:
        os.close(folder_fd)


def _write_by_path(path, doc):
    import tempfile

    folder = os.path.dirname(path)
    os.makedirs(folder, mode=0o700, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".server-", suffix=".json", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(doc, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def remove(path, token):
    """Remove the file if it is still ours (another bridge may have replaced it)."""
    folder, name = os.path.split(path)
    if not _BY_DESCRIPTOR:
        try:
            with open(path, encoding="utf-8") as f:
                if json.load(f).get("token") != token:
                    return
            os.unlink(path)
        except (OSError, ValueError):
            pass
        return
    try:
        folder_fd = _trusted_folder(folder, create=False)
    except OSError:
        return
    try:
        fd = os.open(name, os.O_RDONLY | _NOFOLLOW, dir_fd=folder_fd)
        with os.fdopen(fd, encoding="utf-8") as f:
            if json.load(f).get("token") != token:
                return
        os.unlink(name, dir_fd=folder_fd)
    except (OSError, ValueError):
        pass
    finally:
        os.close(folder_fd)
