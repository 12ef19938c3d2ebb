"""A script's deadline: a watchdog thread that stops the script's Python code when its
time is up, in a way the script cannot catch and carry on.

At the deadline the watchdog raises `ScriptDeadline` in the script's thread
(`PyThreadState_SetAsyncExc`, checked by the interpreter between bytecodes). When that
exception is first caught anywhere (`except BaseException:` in the script, or a
`finally`), creating it installs a trace function on the script's frames and every frame
it calls from then on, which raises `ScriptDeadline` again on the next line: a handler
cannot run a line without raising, so the script unwinds to the runner. The watchdog
repeats the interruption every 50 ms until the runner says the script is over (Blender's
own code may turn an exception raised inside an operator into a RuntimeError). Before
the deadline nothing is traced: a script runs at full speed.

Not covered: a loop inside one C call (`sum(itertools.count())`) never returns to the
interpreter, so nothing in the process can interrupt it short of killing Blender.
"""

import ctypes
import sys
import threading

_set_async_exc = ctypes.pythonapi.PyThreadState_SetAsyncExc
REPEAT_S = 0.05

_current = None  # the Watch of the script running now
_own_codes = frozenset()


class ScriptDeadline(BaseException):
    """The script ran past its deadline (a BaseException: `except Exception` does not
    catch it)."""

    def __init__(self, *args):
        watch = _current
        super().__init__(*(args or (watch.message() if watch else "the script ran past its deadline",)))
        if watch is not None and watch.expired and not watch.finished and threading.get_ident() == watch.thread:
            sys.settrace(_tracer)
            frame = sys._getframe(1)
            while frame is not None and frame.f_code is not watch.runner_code:
                if id(frame.f_code) not in _own_codes:
                    frame.f_trace = _tracer
                    frame.f_trace_lines = True
                frame = frame.f_back


def _tracer(frame, event, arg):
    watch = _current
    if watch is not None and watch.expired and not watch.finished and id(frame.f_code) not in _own_codes:
        raise ScriptDeadline()
    return _tracer


def trust(codes):
    """The code objects of capstan's own containment (never interrupted by the tracer)."""
    global _own_codes
    _own_codes = frozenset(id(c) for c in codes)


class Watch:
    """One script's deadline; `start` before the script, `finish` right after it."""

    def __init__(self, timeout_s, runner_code):
        self.timeout_s = timeout_s
        self.thread = threading.get_ident()
        self.runner_code = runner_code
        self.expired = False
        self.finished = False
        self._lock = threading.Lock()
        self._done = threading.Event()

    def message(self):
        return "the script ran past its deadline of %g s and was stopped (limit script_timeout_s)" % self.timeout_s

    def start(self):
        global _current
        _current = self
        threading.Thread(target=self._watch, name="capstan-script-deadline", daemon=True).start()

    def _interrupt(self):
        _set_async_exc(ctypes.c_ulong(self.thread), ctypes.py_object(ScriptDeadline))

    def _watch(self):
        if self._done.wait(self.timeout_s):
            return
        with self._lock:
            if self.finished:
                return
            self.expired = True
            self._interrupt()
        while not self._done.wait(REPEAT_S):
            with self._lock:
                if self.finished:
                    return
                self._interrupt()

    def finish(self):
        """The script is over: no more interruptions, and a pending one is dropped."""
        global _current
        with self._lock:
            self.finished = True
            self._done.set()
            if self.expired:
                _set_async_exc(ctypes.c_ulong(self.thread), None)
        if _current is self:
            _current = None
