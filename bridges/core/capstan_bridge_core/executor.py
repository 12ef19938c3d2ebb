"""Running work on the app's main thread.

Neither bpy nor FreeCAD's document API is thread-safe: the HTTP server thread never
touches them. It hands a job to this queue and waits; the main thread drains the
queue, either from an app timer (Blender's GUI: `bpy.app.timers`) or from the bridge's
own loop (headless: `BridgeCore.run_background`).
"""

import queue
import threading


class Busy(Exception):
    """The main thread did not pick the job up in time."""


class Job:
    def __init__(self, fn):
        self._fn = fn
        self._done = threading.Event()
        self._claimed = threading.Lock()
        self.result = None

    def run(self):
        if not self._claimed.acquire(blocking=False):
            return
        try:
            self.result = self._fn()
        finally:
            self._done.set()

    def cancel(self):
        """Called by the waiting thread on timeout: True if the job will never run."""
        return self._claimed.acquire(blocking=False)


class MainThreadQueue:
    def __init__(self):
        self._queue = queue.Queue()

    def submit(self, fn, timeout):
        """Run fn on the main thread and return its result (called from any other thread)."""
        job = Job(fn)
        self._queue.put(job)
        if job._done.wait(timeout):
            return job.result
        if job.cancel():
            raise Busy("the app's main thread did not run the command within %.0f s" % timeout)
        job._done.wait()  # it started just now; let it finish
        return job.result

    def drain(self, max_jobs=16, wait=0.0):
        """Run queued jobs on the calling (main) thread; returns how many ran."""
        ran = 0
        while ran < max_jobs:
            try:
                job = self._queue.get(timeout=wait) if (wait and ran == 0) else self._queue.get_nowait()
            except queue.Empty:
                break
            job.run()
            ran += 1
        return ran
