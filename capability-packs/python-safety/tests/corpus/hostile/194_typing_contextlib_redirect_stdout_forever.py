# expect: dangerous-name
import typing
class Tap:
    def write(self, s):
        return len(s)
    def flush(self):
        pass
typing.contextlib.ExitStack().enter_context(typing.contextlib.redirect_stdout(Tap()))
