"""FreeCAD's error codes: the shared table of capstan-bridge/1 (`core/errors.py`) plus
the codes only FreeCAD's commands answer with. Command modules import `CommandError`,
`not_found` and `invalid_target` from here, so the table is complete before any command
is declared. Nothing here imports FreeCAD."""

from .core.errors import CODES, PROTOCOL_CODES, CommandError, invalid_target, not_found, register

register({
    "busy": "FreeCAD's main thread did not take the command in time; retry when the current work is done",
    "freecad_error": "FreeCAD raised an error while running the command; the message says what",
    "not_found": "a named object does not exist in the document; list the objects and use an exact name",
    "invalid_target": "the named object exists but cannot take this (it has no solid shape, or it is the other operand); pick another object",
    "unsupported": "this FreeCAD build lacks the feature (a file format, a module)",
    "operation_failed": "FreeCAD could not compute the result (a fillet or chamfer too large for its edges, a boolean that yields nothing, a file with no shape); the document is left as it was; try smaller values or other operands",
}, protocol_codes=("freecad_error",))

# The code for "the app raised an exception while running the command".
APP_ERROR = "freecad_error"

__all__ = ["APP_ERROR", "CODES", "PROTOCOL_CODES", "CommandError", "invalid_target", "not_found"]
