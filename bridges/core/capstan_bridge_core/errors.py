"""Error codes of capstan-bridge/1: every code a command may answer with, what it
means and what the caller should do. Commands declare which of the codes they raise
(`@command(errors=...)`); the protocol-level codes may come from any command. The
catalog carries the table, and the host passes the code through to the agent, so an
agent can tell "search again" from "pick another object".

The codes every bridge shares are here; each app adds its own, and may reword a shared
one in its own terms, with `register` in its `errors.py` (Blender: `blender_error`,
`exec_disabled`, ...; FreeCAD: `freecad_error`, ...), before any command is declared.
An app's table only grows: a code cannot be dropped, so a code the host knows keeps its
meaning. Nothing here imports the app."""

CODES = {
    # protocol level: any command
    "bad_request": "the request is not a capstan-bridge/1 request; fix the client",
    "unknown_command": "this bridge has no such command (an older or newer bridge); update capstan and the bridge together",
    "invalid_params": "the params fail the command's schema or contradict each other; fix the arguments",
    "busy": "the app's main thread did not take the command in time; retry when the current work is done",
    "delta_mismatch": "verification mode: the document changed in ways the command did not report (a bridge bug)",
    "result_mismatch": "verification mode: the answer does not match the command's declared result schema (a bridge bug)",
    "undeclared_error": "verification mode: the command failed with a code it does not declare (a bridge bug)",
    "non_finite_result": "the command ran (its change is made) but its answer holds NaN or infinity, which JSON cannot carry; inspect the objects it touched",
    # command level: declared per command
    "not_found": "a named object does not exist; list the objects and use an exact name",
    "invalid_target": "the named object exists but cannot take this; pick another object",
    "path_refused": "a file name or path is outside the folders capstan may use",
    "unsupported": "this app build lacks the feature (a file format, an operation)",
    "limit_exceeded": "the request asks for more than the command allows",
}

PROTOCOL_CODES = {"bad_request", "unknown_command", "invalid_params", "busy",
                  "delta_mismatch", "result_mismatch", "undeclared_error", "non_finite_result"}


def register(codes, protocol_codes=()):
    """Add the app's codes (code -> what it means and what to do) to the table; a
    shared code given again takes the app's wording. `protocol_codes`: those of them
    any command may answer with (the app's own "the app raised" code)."""
    for code, meaning in codes.items():
        if not isinstance(code, str) or not code or not isinstance(meaning, str) or not meaning:
            raise ValueError("an error code and its meaning must be non-empty strings: %r" % (code,))
        CODES[code] = meaning
    for code in protocol_codes:
        if code not in CODES:
            raise ValueError("protocol code %r is not registered" % code)
        PROTOCOL_CODES.add(code)


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
