#!/usr/bin/env python3
"""Throughput of `capstan batch` on the local pool (issue 32's figures in host/BENCHMARKS.md).

Runs, in one go and alternating, the same 16-item job with --workers 1 and --workers 2:
each item adds Suzanne and subdivides it (bmesh, on Blender's main thread, about 1 s;
no render). Then 16 items of one read each, for the per-item overhead (reset, call,
record, outputs). Prints wall times, the speed-up and per-item seconds.

    CAPSTAN_BIN=target/release/capstan CAPSTAN_BLENDER=/path/to/bpy/python \
        python3 scripts/bench_batch.py [--rounds 2] [--items 16] [--cuts 20] \
        [--ray 127.0.0.1:PORT --ray-python VENV/bin/python]

With --ray, the same two jobs also run on that Ray cluster (one task per item, each a
`capstan batch` of one item on its node: its start, the app's start and the item).
"""
import argparse, json, os, statistics, subprocess, sys, tempfile, time


def job(folder, name, steps, items):
    path = os.path.join(folder, name + ".json")
    with open(path, "w") as f:
        json.dump({"steps": steps, "items": items}, f)
    return path


def run(capstan, path, workers, env, ray=None):
    out = path + f".w{workers}.{time.monotonic_ns()}"
    how = ["--workers", str(workers)]
    if ray:
        address, python = ray
        how = ["--ray", address, "--ray-python", python, "--ray-env", "CAPSTAN_HOME=" + env["CAPSTAN_HOME"]]
        how += ["--ray-env", "CAPSTAN_BLENDER=" + env["CAPSTAN_BLENDER"]] if env.get("CAPSTAN_BLENDER") else []
    started = time.monotonic()
    done = subprocess.run([capstan, "batch", path, *how, "--out", out, "--json"], env=env, capture_output=True, text=True)
    wall = time.monotonic() - started
    if done.returncode != 0:
        sys.exit(f"capstan batch failed ({done.returncode}):\n{done.stderr}")
    manifest = json.load(open(os.path.join(out, "manifest.json")))
    return wall, [i["seconds"] for i in manifest["items"]]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--items", type=int, default=16)
    ap.add_argument("--cuts", type=int, default=20)
    ap.add_argument("--ray", help="the address of a Ray cluster's GCS")
    ap.add_argument("--ray-python", help="the Python of a venv with ray")
    args = ap.parse_args()
    capstan = os.environ.get("CAPSTAN_BIN", "target/release/capstan")
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, CAPSTAN_HOME=os.path.join(tmp, "home"))
        heavy = job(tmp, "heavy", [
            {"run": "scene.create_object", "arguments": {"type": "monkey", "name": "M"}},
            {"run": "mutate.mesh_edit", "arguments": {"object": "M", "op": "subdivide", "params": {"cuts": {"$item": "cuts"}}}},
            {"run": "mutate.mesh_edit", "arguments": {"object": "M", "op": "triangulate"}},
        ], [{"cuts": args.cuts} for _ in range(args.items)])
        light = job(tmp, "light", [{"run": "scene.info", "arguments": {}}], [{} for _ in range(args.items)])
        run(capstan, light, 1, env)  # warm: packs compiled into this home's cache
        walls = {1: [], 2: []}
        items = []
        for _ in range(args.rounds):
            for workers in (1, 2):
                wall, seconds = run(capstan, heavy, workers, env)
                walls[workers].append(wall)
                if workers == 1:
                    items += seconds
        light_wall, light_items = run(capstan, light, 1, env)
        if args.ray:
            ray = (args.ray, args.ray_python)
            ray_heavy, ray_heavy_items = run(capstan, heavy, 0, env, ray)
            ray_light, ray_light_items = run(capstan, light, 0, env, ray)
    one, two = statistics.median(walls[1]), statistics.median(walls[2])
    print(f"heavy item (1 worker): median {statistics.median(items):.2f} s")
    print(f"{args.items} items, 1 worker: {one:.1f} s (runs {', '.join(f'{w:.1f}' for w in walls[1])})")
    print(f"{args.items} items, 2 workers: {two:.1f} s (runs {', '.join(f'{w:.1f}' for w in walls[2])})")
    print(f"speed-up: {one / two:.2f}x")
    print(f"per-item overhead (one read, reset and record): median {statistics.median(light_items) * 1000:.0f} ms; "
          f"{args.items} items on 1 worker {light_wall:.1f} s including the worker's start")
    if args.ray:
        print(f"Ray: {args.items} heavy items {ray_heavy:.1f} s (item median {statistics.median(ray_heavy_items):.2f} s); "
              f"{args.items} one-read items {ray_light:.1f} s, {ray_light / args.items:.2f} s per item per node-slot in all")


if __name__ == "__main__":
    main()
