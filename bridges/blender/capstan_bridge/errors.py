"""Blender's error codes: the shared table of capstan-bridge/1 (`core/errors.py`) plus
the codes only Blender's commands answer with, and the shared codes in Blender's terms.
Command modules import `CommandError`, `not_found` and `invalid_target` from here, so
the table is complete before any command is declared. Nothing here imports bpy."""

from .core.errors import CODES, PROTOCOL_CODES, CommandError, invalid_target, not_found, register

register({
    "unknown_command": "this bridge has no such command (an older or newer add-on); update capstan and the add-on together",
    "delta_mismatch": "verification mode: the scene changed in ways the command did not report (a bridge bug)",
    "busy": "Blender's main thread did not take the command in time; retry when the current work is done",
    "blender_error": "Blender raised an error while running the command; the message says what",
    "not_found": "a named object or datablock does not exist; list the scene and use an exact name",
    "invalid_target": "the named object exists but cannot take this (wrong type, or it would make a cycle); pick another object",
    "no_camera": "the scene has no active camera; set one first",
    "unsupported": "this Blender build lacks the feature (an engine, a modifier type, a file format)",
    "exec_disabled": "this Blender's bridge does not run Python",
    "not_checked": "the script does not carry the checker's verdict for exactly this text",
    "script_error": "the script raised an error",
    "script_refused": "the runtime guard refused something the script tried (a process, a socket, a file outside the output folder, ...)",
    "script_timeout": "the script ran past its deadline and was stopped; Blender serves on",
    "script_memory_limit": "the script grew past its memory cap and was stopped; Blender serves on",
    "limit_exceeded": "the request asks for more than the command allows (snapshots kept, objects listed, ...)",
    "unsaved_file": "the scene has never been saved as a .blend, so there is no folder relative (//) paths could start from; save it (io.save with copy: false) first",
    "outside_file_references": "the file (or the scene) refers to files outside the read roots or the output folder, or to paths that cannot be checked; the message names each; load it with detach_outside_references: true, or call detach_file_references",
}, protocol_codes=("blender_error",))

# The code for "the app raised an exception while running the command".
APP_ERROR = "blender_error"

__all__ = ["APP_ERROR", "CODES", "PROTOCOL_CODES", "CommandError", "invalid_target", "not_found"]
