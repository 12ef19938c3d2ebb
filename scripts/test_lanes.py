"""Run every test binary of the workspace, built once, in parallel lanes.

    python3 scripts/test_lanes.py [--lanes N] [--command NAME=SHELL ...]

Most of the suite waits: on a headless Blender, on a child process, on a socket. One
binary after another leaves the machine idle, so the binaries run in N lanes (default
2), longest first (durations measured on a 2-core machine, below; an unknown binary is
taken as long). Each binary keeps what `cargo test` gives it: its own process, its
package folder as the working directory, its tests in parallel threads, and the state
it shares between its own tests (one Blender per binary). Output is printed per binary
when it ends, so lanes do not interleave. Doctests are not here (`cargo test --doc`).

`--command NAME=SHELL` adds a job that is no test binary (a pytest suite under
Blender's Python, say), run by `bash -c SHELL` from the repository's root in a lane of
its own turn; its last lines are printed when it passes, everything when it fails.

Exit status: 0 when every binary passed, 1 otherwise (every binary still runs).
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import threading
import time

# Seconds each job took in two lanes on the 2-core machine (scripts/test, 2026-12-07,
# the compiled components shared by the whole run); a job not listed is scheduled as
# if it took UNKNOWN.
MEASURED = {
    "conformance": 622, "eval": 512, "MCP with the official Python SDK": 420, "packs_new": 213,
    "add-on tests, Blender 5.2 LTS": 198, "batch": 143, "foreign_packs": 125, "the wheel": 100, "mcp": 76,
    "containment": 69, "blender": 56, "runtime": 40, "capstan (lib)": 31, "hostile": 30, "store": 27, "mcp_http": 22,
    "python_exec": 17, "workflows": 9, "soak": 9, "contracts": 8, "routing": 7, "concurrency": 7, "cad_packshot": 7,
    "runtime_file_trust": 4, "planner": 4, "freecad_conformance": 4, "cli": 4, "bridge_faults": 3, "fuzz_corpus": 2,
    "freecad_unit": 2, "setup_clients": 0, "pack_copies": 0, "app_neutral": 0, "wasm_target": 0,
}
UNKNOWN = 120
# One binary that runs longer than this is stopped and fails (the whole run has 90 min).
TIMEOUT_S = 30 * 60


def test_binaries():
    """(name, executable, package folder) of every test target, building what is missing."""
    out = subprocess.run(
        ["cargo", "test", "--workspace", "--locked", "--no-run", "--message-format=json-render-diagnostics"],
        check=True, stdout=subprocess.PIPE, text=True,
    ).stdout
    found = []
    for line in out.splitlines():
        msg = json.loads(line)
        if msg.get("reason") != "compiler-artifact" or not msg.get("executable") or not msg["profile"]["test"]:
            continue
        target = msg["target"]
        name = target["name"] if "test" in target["kind"] else "%s (%s)" % (target["name"], "+".join(target["kind"]))
        found.append((name, msg["executable"], os.path.dirname(msg["manifest_path"])))
    return found


def runtime_env():
    """The environment cargo gives a test: the toolchain's and the build's shared
    libraries on the loader's path (a proc-macro crate's tests link libstd dynamically)."""
    rustc = lambda *args: subprocess.run(["rustc", *args], check=True, stdout=subprocess.PIPE, text=True).stdout
    sysroot = rustc("--print", "sysroot").strip()
    host = next(line.split(":", 1)[1].strip() for line in rustc("-vV").splitlines() if line.startswith("host:"))
    env = dict(os.environ)
    # As cargo does for a test it runs: the cargo that runs the suite.
    env.setdefault("CARGO", shutil.which("cargo") or "cargo")
    paths = [os.path.join(sysroot, "lib", "rustlib", host, "lib"), os.path.join(sysroot, "lib")]
    paths += [env["LD_LIBRARY_PATH"]] if env.get("LD_LIBRARY_PATH") else []
    env["LD_LIBRARY_PATH"] = os.pathsep.join(paths)
    return env


def run_lanes(binaries, lanes):
    env = runtime_env()
    # A command's name may go on after its first words ("the wheel (maturin; ...)").
    measured = lambda name: next((v for k, v in MEASURED.items() if name == k or name.startswith(k + " ")), UNKNOWN)
    queue = sorted(binaries, key=lambda b: -measured(b[0]))
    lock = threading.Lock()
    failed = []

    def worker():
        while True:
            with lock:
                if not queue:
                    return
                name, exe, cwd_or_shell = queue.pop(0)
            started = time.monotonic()
            command = exe is None
            argv, cwd = (["bash", "-c", cwd_or_shell], None) if command else ([exe], cwd_or_shell)
            try:
                proc = subprocess.run(argv, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                      errors="replace", timeout=TIMEOUT_S)
            except subprocess.TimeoutExpired as e:
                out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
                proc = subprocess.CompletedProcess([exe], 124, out + "\n(stopped after %d s)" % TIMEOUT_S)
            took = time.monotonic() - started
            with lock:
                status = "ok" if proc.returncode == 0 else "FAILED (exit %d)" % proc.returncode
                print("== %s: %s in %.0f s" % (name, status, took), flush=True)
                if proc.returncode != 0:
                    failed.append(name)
                    print(proc.stdout, flush=True)
                elif command:
                    for line in proc.stdout.rstrip().splitlines()[-2:]:
                        print("   " + line, flush=True)
                else:
                    # The summary lines only: the full output of a passing binary is noise.
                    for line in proc.stdout.splitlines():
                        if line.startswith("test result:") or "ignored" in line and line.startswith("test "):
                            print("   " + line, flush=True)

    threads = [threading.Thread(target=worker) for _ in range(max(1, lanes))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return failed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lanes", type=int, default=2)
    parser.add_argument("--command", action="append", default=[], metavar="NAME=SHELL",
                        help="a job that is no test binary, run by bash from the repository's root")
    args = parser.parse_args()
    binaries = test_binaries()
    if not binaries:
        print("no test binaries found", file=sys.stderr)
        return 1
    for job in args.command:
        name, sep, shell = job.partition("=")
        if not sep or not name or not shell:
            print("--command wants NAME=SHELL, got %r" % job, file=sys.stderr)
            return 2
        # (name, None, shell): a command, run in the repository's root.
        binaries.append((name, None, shell))
    started = time.monotonic()
    failed = run_lanes(binaries, args.lanes)
    print("== %d jobs in %.0f s, %d failed%s" % (len(binaries), time.monotonic() - started, len(failed),
                                                          (": " + ", ".join(failed)) if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
