"""Error codes of capstan-bridge/1: every code a command may answer with, what it
means and what the caller should do. Commands declare which of the codes they raise
(`@command(errors=...)`); the protocol-level codes below may come from any command.
The catalog carries this table, and the host passes the code through to the agent,
so an agent can tell "search again" from "pick another object". Nothing here imports
bpy."""

CODES = {
    # protocol level: any command
    "bad_request": "the request is not a capstan-bridge/1 request; fix the client",
    "unknown_command": "this bridge has no such command (an older or newer add-on); update capstan and the add-on together",
    "invalid_params": "the params fail the command's schema or contradict each other; fix the arguments",
    "busy": "Blender's main thread did not take the command in time; retry when the current work is done",
    "blender_error": "Blender raised an error while running the command; the message says what",
    "delta_mismatch": "verification mode: the scene changed in ways the command did not report (a bridge bug)",
    "result_mismatch": "verification mode: the answer does not match the command's declared result schema (a bridge bug)",
    "undeclared_error": "verification mode: the command failed with a code it does not declare (a bridge bug)",
    # command level: declared per command
    "not_found": "a named object or datablock does not exist; list the scene and use an exact name",
    "invalid_target": "the named object exists but cannot take this (wrong type, or it would make a cycle); pick another object",
    "path_refused": "a file name or path is outside the folders capstan may use",
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
}

PROTOCOL_CODES = frozenset({"bad_request", "unknown_command", "invalid_params", "busy", "blender_error",
                            "delta_mismatch", "result_mismatch", "undeclared_error"})


class CommandError(Exception):
    """A command failed in a way the caller can act on; `code` is one of CODES."""

    def __init__(self, code, message):
        if code not in CODES:
            raise ValueError("unknown bridge error code %r" % code)
        super().__init__(message)
        self.code = code
        self.message = message


def not_found(kind, name):
    return CommandError("not_found", "no %s named %r" % (kind, name))


def invalid_target(message):
    return CommandError("invalid_target", message)
