"""A script's deadline: a watchdog thread that stops the script's Python code when its
time is up, in a way the script cannot catch and carry on.

At the deadline the watchdog raises `ScriptDeadline` in the script's thread
(`PyThreadState_SetAsyncExc`, checked by the interpreter between bytecodes), and
repeats it every 50 ms until the runner says the script is over (Blender's own code may
turn an exception raised inside an operator into a RuntimeError). So that a handler
(`except BaseException:` in the script, a `finally`) cannot run on, from the deadline
on every line the script's thread runs outside capstan's own code raises
`ScriptDeadline` again:

- Python 3.12 and newer: a `sys.monitoring` tool, switched on by the watchdog at the
  deadline (the interpreter instruments the code already running, so the frame the
  script is looping in is covered). Its callback raises on a line, a jump and a
  function start or resumption; a callback that raises stays installed. (Not on
  EXCEPTION_HANDLED: raising there crashes CPython 3.13.0; a handler's first line
  raises instead.)
- Python 3.11: a trace function, installed on the script's frames and every frame it
  calls when `ScriptDeadline` is first created in the script's thread. CPython switches
  a trace function off once it raises, so the exception's creation installs it again,
  and the watchdog's repeated interruptions create new ones.

The runner's clean-up after the script (dropping what it made, whose finalisers are
the script's code) runs while the watchdog still repeats: a finaliser that runs past
the deadline is stopped too. The watchdog sends nothing while capstan's own code is
what the thread runs; one that lands in the runner's own lines all the same is taken by
its retry loops (runner.py), and `checkpoint` is where a last one lands.

Before the deadline nothing is traced or monitored: a script runs at full speed.

Not covered: a loop inside one C call (`sum(itertools.count())`) never returns to the
interpreter, so nothing in the process can interrupt it short of killing Blender (the
kernel's limits and the host's deadline for the call are what remain).
"""

import ctypes
import sys
import threading

_set_async_exc = ctypes.pythonapi.PyThreadState_SetAsyncExc
REPEAT_S = 0.05

_current = None  # the Watch of the script running now
_own_codes = frozenset()

_monitoring = getattr(sys, "monitoring", None)
_TOOL_NAME = "capstan-deadline"
_tool = None  # the sys.monitoring tool id, once taken


class ScriptDeadline(BaseException):
    """The script ran past its deadline (a BaseException: `except Exception` does not
    catch it)."""

    def __init__(self, *args):
        watch = _current
        super().__init__(*(args or (watch.message() if watch else "the script ran past its deadline",)))
        if _tool is None and watch is not None and watch.expired and not watch.finished and threading.get_ident() == watch.thread:
            sys.settrace(_tracer)
            frame = sys._getframe(1)
            while frame is not None and frame.f_code is not watch.runner_code:
                if id(frame.f_code) not in _own_codes:
                    frame.f_trace = _tracer
                    frame.f_trace_lines = True
                frame = frame.f_back


def _past_deadline(code):
    watch = _current
    return (watch is not None and watch.expired and not watch.finished and id(code) not in _own_codes
            and threading.get_ident() == watch.thread)


def _tracer(frame, event, arg):
    """Python 3.11: raise again on any event of the script's code past the deadline."""
    if _past_deadline(frame.f_code):
        raise ScriptDeadline()
    return _tracer


def _monitored(code, *rest):
    """Python 3.12+: the `sys.monitoring` callback (every event passes the code object
    first)."""
    if _past_deadline(code):
        raise ScriptDeadline()
    return None


def _monitoring_events():
    e = _monitoring.events
    return e.LINE | e.JUMP | e.PY_START | e.PY_RESUME


def _take_tool():
    """Register the monitoring callback under a free tool id (3 and 4 are assigned to
    nobody; debuggers, coverage and profilers use 0, 1, 2 and 5). Without one, the
    trace function serves."""
    global _tool
    if _monitoring is None or _tool is not None:
        return
    for tool in (3, 4):
        try:
            _monitoring.use_tool_id(tool, _TOOL_NAME)
        except ValueError:
            if _monitoring.get_tool(tool) != _TOOL_NAME:
                continue
        e = _monitoring.events
        for event in (e.LINE, e.JUMP, e.PY_START, e.PY_RESUME):
            _monitoring.register_callback(tool, event, _monitored)
        _tool = tool
        return


def _engage():
    """Past the deadline: switch the monitoring on, re-claiming the tool and its
    callbacks first if a script freed or took them. Whatever fails here, the
    watchdog's interruptions still come."""
    try:
        if _monitoring.get_tool(_tool) != _TOOL_NAME:
            _monitoring.use_tool_id(_tool, _TOOL_NAME)
        e = _monitoring.events
        for event in (e.LINE, e.JUMP, e.PY_START, e.PY_RESUME):
            _monitoring.register_callback(_tool, event, _monitored)
        if _monitoring.get_events(_tool) != _monitoring_events():
            _monitoring.set_events(_tool, _monitoring_events())
    except Exception:  # noqa: the tool is in other hands; interruptions remain
        pass


def _disengage():
    try:
        if _monitoring.get_tool(_tool) == _TOOL_NAME:
            _monitoring.set_events(_tool, 0)
    except Exception:  # noqa: nothing to switch off
        pass


def trust(codes):
    """The code objects of capstan's own containment (never interrupted), and the
    monitoring tool taken, once."""
    global _own_codes
    _own_codes = frozenset(id(c) for c in codes)
    _take_tool()


def mechanism():
    """How a handler is kept from running on past the deadline (for tests and logs)."""
    return "sys.monitoring" if _tool is not None else "sys.settrace"


class Watch:
    """One script's deadline; `start` before the script, `finish` after it and the
    clean-up."""

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
        # Not while capstan's own code runs on that thread (the runner's clean-up, the
        # guard's hook): an interruption landing there, rather than in the script's
        # code, could cut a clean-up step short. The next tick comes 50 ms later.
        frame = sys._current_frames().get(self.thread)
        if frame is not None and id(frame.f_code) in _own_codes:
            return
        _set_async_exc(ctypes.c_ulong(self.thread), ctypes.py_object(ScriptDeadline))

    def _watch(self):
        if self._done.wait(self.timeout_s):
            return
        with self._lock:
            if self.finished:
                return
            self.expired = True
            if _tool is not None:
                _engage()
            self._interrupt()
        while not self._done.wait(REPEAT_S):
            with self._lock:
                if self.finished:
                    return
                if _tool is not None:
                    _engage()
                self._interrupt()

    def finish(self):
        """The script and its clean-up are over: no more interruptions. One already
        sent is not cancelled: `PyThreadState_SetAsyncExc(thread, NULL)` leaves CPython
        3.11's eval breaker set for good, which with a trace function on spins forever
        at the next function entry. The runner takes it at `checkpoint` instead."""
        global _current
        with self._lock:
            self.finished = True
            self._done.set()
            if _tool is not None and self.expired:
                _disengage()
        if _current is self:
            _current = None


def checkpoint():
    """A function entry, where the interpreter raises an interruption sent before (the
    runner calls it inside a retry loop, after `finish`)."""
