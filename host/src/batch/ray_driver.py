"""capstan's Ray driver: one Ray task per batch item (shipped inside capstan; see
host/src/batch/ray.rs, which starts it with the Python of a venv holding Ray).

Reads the batch from stdin as one JSON document:
  {"address", "env", "retries", "steps", "app", "items": [{"id", "fields", "job"?}], "max_output_bytes",
   "shared"?}
and prints one JSON line per finished item on stdout:
  {"id", "node", "attempt", "record", "out", "files": [{"path", "data"}]}
or {"id", "error": {"code", "message"}} when the item could not be run at all.

Each task runs `capstan batch` for its one item on its node (`CAPSTAN_BIN`, else
`capstan` on PATH), so the item goes through the node's own call path, sandbox, gates
and kernel wall; this driver never talks to an app. A task whose node is lost is run
again by Ray elsewhere (`max_retries`), at most `retries` times. Files come back as
bytes through Ray's object store, and capstan checks every name before writing one.
Only Ray's public API is used, except the attempt number (read when Ray offers it).
"""
import base64
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile


def _die_with_parent():
    # The task's capstan (and through it its app) ends when the Ray worker running the
    # task does, however it ends: Linux's parent-death signal.
    try:
        import ctypes
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except OSError:
        pass


def _attempt():
    try:
        import ray
        return int(ray._private.worker.global_worker.core_worker.get_current_task_attempt_number())
    except Exception:
        return 0


def run_item(steps, app, item, retries, max_output_bytes, shared=None):
    import ray
    attempt = _attempt()
    node = ray.get_runtime_context().get_node_id()
    capstan = os.environ.get("CAPSTAN_BIN") or shutil.which("capstan")
    if not capstan:
        raise RuntimeError(f"node {node} has no capstan: set CAPSTAN_BIN in the job's runtime environment or put capstan on PATH")
    with tempfile.TemporaryDirectory(prefix="capstan-ray-") as tmp:
        job = item.get("job")  # an eval task: its node's whole job
        if job is None:
            job = {"steps": steps, "items": [dict(item["fields"], id=item["id"])], "retries": retries}
            if app:
                job["app"] = app
        job_path = os.path.join(tmp, "job.json")
        with open(job_path, "w") as f:
            json.dump(job, f)
        out = os.path.join(tmp, "out")
        done = subprocess.run([capstan, "batch", job_path, "--workers", "1", "--out", out],
                              stdin=subprocess.DEVNULL, capture_output=True, text=True, preexec_fn=_die_with_parent)
        record_path = os.path.join(out, "items", item["id"] + ".json")
        if not os.path.exists(record_path):
            tail = done.stderr[-2000:]
            raise RuntimeError(f"capstan batch on node {node} wrote no record (exit {done.returncode}): {tail}")
        with open(record_path) as f:
            record = json.load(f)
        files, total = [], 0
        for rel in record.get("outputs", []):
            path = os.path.join(out, rel)
            if shared:
                # Into the shared folder the job names (same path on every machine); only
                # the names come back. A retried item's files replace the earlier ones.
                target = os.path.join(shared, rel)
                os.makedirs(os.path.dirname(target), exist_ok=True)
                shutil.copyfile(path, target + ".part")
                os.replace(target + ".part", target)
                files.append({"path": rel})
                continue
            size = os.path.getsize(path)
            total += size
            if total > max_output_bytes:
                raise RuntimeError(f"item {item['id']} made more than {max_output_bytes} bytes of files")
            with open(path, "rb") as f:
                files.append({"path": rel, "data": base64.b64encode(f.read()).decode("ascii")})
        return {"id": item["id"], "node": node, "attempt": attempt, "record": record, "out": out, "files": files}


def main():
    spec = json.load(sys.stdin)
    import ray
    ray.init(address=spec["address"], runtime_env={"env_vars": spec["env"]}, logging_level="WARNING", log_to_driver=False)
    task = ray.remote(num_cpus=1, max_retries=spec["retries"], retry_exceptions=False)(run_item)
    refs = {}
    for item in spec["items"]:
        ref = task.remote(spec["steps"], spec.get("app"), item, spec["retries"], spec["max_output_bytes"], spec.get("shared"))
        refs[ref] = item["id"]
    pending = list(refs)
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        for ref in done:
            try:
                line = ray.get(ref)
                # The answer is for the item this task was given, whatever the node said.
                line["id"] = refs[ref]
            except Exception as e:  # the task failed for good (out of retries, or no record)
                line = {"id": refs[ref], "error": {"code": "RAY_TASK_FAILED", "message": str(e)[-4000:]}}
            sys.stdout.write(json.dumps(line) + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
