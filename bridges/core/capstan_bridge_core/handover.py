"""What the capstan that launched this app hands over through inherited descriptors.

Security reasoning: a confined app (host/src/containment) may bind no port and
write nothing under CAPSTAN_HOME, and its environment stays readable in
/proc/<pid>/environ for its whole life. So capstan binds the loopback socket itself and
passes it as a listening descriptor, and passes the bearer token (and, for Blender,
execute_python's attestation key: `Handed.secrets`, which the app's launcher script
installs) through a pipe that is read once and closed here, before any script can
run. Nothing of it is ever written to a file by this side.
"""

import json
import os
import socket
import sys

MAX_SECRETS_BYTES = 4096


class Handed:
    def __init__(self, listener, token, secrets=None):
        self.listener = listener
        self.token = token
        # Every field of the secrets document (the app takes what it knows: exec_key).
        self.secrets = secrets
        self.exec_forbidden = False


class HandoverError(Exception):
    pass


def _read_all(fd):
    chunks = []
    size = 0
    while True:
        chunk = os.read(fd, 1024)
        if not chunk:
            break
        size += len(chunk)
        if size > MAX_SECRETS_BYTES:
            raise HandoverError("the secrets descriptor holds more than %d bytes" % MAX_SECRETS_BYTES)
        chunks.append(chunk)
    return b"".join(chunks)


def take(listen_fd, secrets_fd):
    """The handed socket and secrets; the descriptors are consumed (the secrets one is
    closed, the socket one belongs to the returned socket object)."""
    listener = None
    if listen_fd is not None:
        listener = socket.socket(fileno=listen_fd)
        if listener.family not in (socket.AF_INET, socket.AF_INET6) or listener.type != socket.SOCK_STREAM:
            raise HandoverError("descriptor %d is not a TCP socket" % listen_fd)
        host = listener.getsockname()[0]
        if not (host.startswith("127.") or host == "::1"):
            raise HandoverError("the handed socket is not on loopback")
        os.set_inheritable(listener.fileno(), False)
    token, doc = None, None
    if secrets_fd is not None:
        try:
            doc = json.loads(_read_all(secrets_fd).decode("utf-8"))
        finally:
            os.close(secrets_fd)
        token = doc.get("token")
        if not isinstance(token, str) or len(token) < 16:
            raise HandoverError("the secrets hold no token")
    return Handed(listener, token, doc)


# -- no exec after start ---------------------------------------------------------------
#
# capstan's filter must let the launch itself exec the program, so Landlock's execute
# right on the program and its ELF loader stays usable afterwards: native code could
# re-exec the loader with another program as its argument, or a memfd. Once started,
# nothing in a confined app needs exec (new processes are refused anyway), so the
# add-on adds one more seccomp filter, to every thread, that refuses execve and
# execveat. Filters cannot be removed, and no_new_privs is already set by capstan.

_EXEC_SYSCALLS = {"x86_64": (0xC000003E, 59, 322, 317), "aarch64": (0xC00000B7, 221, 281, 277)}


def forbid_exec():
    """Refuse execve/execveat to every thread from now on; True when installed."""
    import ctypes
    import platform
    import struct

    machine = platform.machine()
    if machine not in _EXEC_SYSCALLS or not sys.platform.startswith("linux"):
        return False
    arch, execve, execveat, seccomp_nr = _EXEC_SYSCALLS[machine]
    allow, eperm = 0x7FFF0000, 0x00050000 | 1
    program = [
        (0x20, 0, 0, 4),  # A = seccomp_data.arch
        (0x15, 1, 0, arch),  # ours: go on; another: leave it to capstan's filter
        (0x06, 0, 0, allow),
        (0x20, 0, 0, 0),  # A = seccomp_data.nr
        (0x15, 2, 0, execve),
        (0x15, 1, 0, execveat),
        (0x06, 0, 0, allow),
        (0x06, 0, 0, eperm),
    ]
    code = b"".join(struct.pack("=HBBI", *insn) for insn in program)
    buffer = ctypes.create_string_buffer(code, len(code))

    class SockFprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    prog = SockFprog(len(program), ctypes.cast(buffer, ctypes.c_void_p))
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    # SECCOMP_SET_MODE_FILTER (1), SECCOMP_FILTER_FLAG_TSYNC (1)
    rc = libc.syscall(ctypes.c_long(seccomp_nr), ctypes.c_long(1), ctypes.c_long(1), ctypes.byref(prog))
    if rc != 0:
        sys.stderr.write("capstan bridge: WARNING: could not forbid exec (%s)\n" % os.strerror(ctypes.get_errno()))
        return False
    return True
