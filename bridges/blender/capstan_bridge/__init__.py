"""capstan bridge: Blender's side of capstan's loopback bridge (protocol capstan-bridge/1).

Installed in Blender (as an extension or a legacy add-on), it starts an HTTP server on
127.0.0.1 when enabled and runs queued commands on Blender's main thread from a timer.
Headless, `run_bridge.py` starts the same bridge and keeps the main thread in the
bridge's own loop (timers never fire in background mode).

Nothing here imports bpy at import time, so the protocol, catalog and server can be
tested with plain Python.
"""

bl_info = {
    "name": "capstan bridge",
    "author": "capstan",
    "version": (0, 1, 0),
    "blender": (4, 5, 0),
    "location": "Runs in the background; see the system console",
    "description": "Loopback bridge that lets capstan (an MCP host) drive Blender safely (tested on Blender 4.5 LTS and 5.2 LTS)",
    "category": "System",
}

_bridge = None


def register():
    """Enable: start the bridge in GUI mode (timer-driven main-thread execution)."""
    global _bridge
    from . import preferences
    from .bridge import Bridge

    preferences.register(__package__)
    if _bridge is None:
        _bridge = Bridge.from_environment()
        _bridge.start_gui()


def unregister():
    global _bridge
    from . import preferences

    if _bridge is not None:
        _bridge.stop()
        _bridge = None
    preferences.unregister()
