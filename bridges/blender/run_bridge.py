"""Start the capstan bridge in a Blender that is starting up.

    blender -b --factory-startup --python run_bridge.py -- [--port N] [--runtime-file PATH]
    python3.11 run_bridge.py [--port N] [--runtime-file PATH]        # with PyPI `bpy`
    blender --python run_bridge.py -- [...]                          # GUI

Background (`-b`, or Blender as a Python module): the main thread stays in the
bridge's loop and runs queued bpy work until SIGINT/SIGTERM (timers never fire in
background mode); the HTTP thread keeps answering /ping meanwhile.
GUI: the bridge starts in timer mode and Blender's own event loop goes on.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def main(argv):
    if "--" in argv:
        argv = argv[argv.index("--") + 1:]
    elif argv and argv[0].endswith(".py"):
        argv = argv[1:]
    parser = argparse.ArgumentParser(prog="run_bridge.py")
    parser.add_argument("--port", type=int, default=None)
    parser.add_argument("--runtime-file", default=None)
    parser.add_argument("--output-dir", default=None)
    parser.add_argument("--debug", action="store_true")
    args = parser.parse_args(argv)

    import bpy  # Blender's own, or the PyPI module
    from capstan_bridge.bridge import Bridge

    bridge = Bridge(port=args.port, runtime_path=args.runtime_file, output_dir=args.output_dir, debug=args.debug)
    if bpy.app.background:
        bridge.run_background()
    else:
        bridge.start_gui()


if __name__ == "__main__":
    main(sys.argv)
