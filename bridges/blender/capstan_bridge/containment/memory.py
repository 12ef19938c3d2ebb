"""A cap on the memory a script may grow: while it runs, the process's address-space
limit (RLIMIT_AS) is what it uses now plus the cap, so an allocation past it fails with
MemoryError instead of taking the machine; the previous limit is restored afterwards.

Linux only (elsewhere `cap` does nothing and says so). The limit is the process's, so
Blender's own allocations during the script count too: Python raises MemoryError
cleanly, but Blender's C code may not handle a failed allocation (a script that asks
Blender itself for gigabytes can still bring it down).
"""

import os

try:
    import resource
except ImportError:  # Windows
    resource = None


def _address_space_bytes():
    with open("/proc/self/statm", encoding="ascii") as f:
        pages = int(f.read().split()[0])
    return pages * os.sysconf("SC_PAGE_SIZE")


def supported():
    return resource is not None and hasattr(resource, "RLIMIT_AS") and os.path.exists("/proc/self/statm")


def cap(mib):
    """Limit growth to `mib` MiB; returns the function that lifts the cap again."""
    if not supported():
        return lambda: None
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = _address_space_bytes() + mib * 1024 * 1024
    if soft != resource.RLIM_INFINITY:
        limit = min(limit, soft)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))

    def restore():
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))

    return restore
