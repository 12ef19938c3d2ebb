"""capstan bridge for FreeCAD: FreeCAD's side of capstan's loopback bridge (protocol
capstan-bridge/1), run headless as `freecadcmd run_bridge.py -- [--port N]
[--runtime-file PATH]`.

What every bridge shares (HTTP server, runtime file, handover, paths, schemas,
`@command`, the main-thread queue) is the core, `capstan_freecad.core` (the one copy in
bridges/core/capstan_bridge_core/). Here: FreeCAD's app description (`app.py`), error
codes (`errors.py`), bridge (`bridge.py`: commands run on the main thread, one undo
transaction each, deltas from document snapshots in `delta.py`) and commands
(`commands/`, one module per domain).

Nothing here imports FreeCAD at import time (only the handlers do, when they run), so
the catalog can be generated, and the protocol tested, with any Python 3.
"""
