class CommandError(Exception):
    """A command failed in a way the caller can act on; `code` is stable."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message


def not_found(kind, name):
    return CommandError("not_found", "no %s named %r" % (kind, name))
