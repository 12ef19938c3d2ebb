"""Containment for `execute_python`: what holds while a checked script runs, even when
the checker (the host's first layer) was wrong about it.

Each layer stands on its own and is tested alone (bridges/blender/tests/test_containment.py
sends payloads the checker rejects straight to the add-on):

- `attestation`: the add-on runs only scripts the host checked: an HMAC over the script
  and the checker's digest, keyed by a secret the host reads from the runtime file
  (and that `capstan blender launch` hands over in the environment), single use.
- `guard`: a PEP 578 audit hook, armed only while a checked script runs, on the thread
  that runs it: no processes, sockets, ctypes or native loading, no imports outside the
  policy, no file opens outside the session's output folder and Blender's read-only
  resources, no compiling or executing strings (Blender's own `eval`/`exec` inside
  operator code included), no frames, code objects or garbage-collector walks.
- `deadline`: a watchdog that interrupts the script's Python code when its time is up,
  in a way the script cannot catch and carry on.
- `memory`: a cap on the address space the process may grow by while the script runs.
- `plain`: the plain-data copy of a script's `result` (builtin JSON types only,
  bounded), the only thing of the script's that leaves it.
- `runner`: runs one script under all of them, drops everything the script made while
  the guard is still armed, and says how it ended.
- the shared core's `addon_folder` (`core/addon_folder.py`, every bridge's) checks, at
  start, that this Blender cannot write into the add-on's own folder (the kernel layer
  makes it read-only; this only says so when it is not).

All of them are the add-on's early layer; the wall is the kernel's (DESIGN §3a).
"""
