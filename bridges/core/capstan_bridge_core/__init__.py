"""capstan_bridge_core: the app-neutral half of every capstan-bridge/1 bridge.

One copy in the repository (`bridges/core/capstan_bridge_core/`); each app's package
reaches it as its subpackage `core` (a symlink in the source tree: Blender's
`capstan_bridge/core`, FreeCAD's `capstan_freecad/core`), and whatever ships a bridge
follows that link (Blender's package.py zips, the host's embedded add-on in
host/build.rs), so an installed bridge is self-contained. Every module here imports
only the standard library and its siblings, relatively, and names no application:
the app is a parameter (`app.App`).

- protocol.py: the protocol's constants; http_server.py: the loopback HTTP side;
- runtime_file.py: how capstan finds a bridge; handover.py: what a launching capstan
  hands over; paths.py: output folder and read roots;
- schema.py: declarations' schemas and the validator; command.py: `@command` and the
  catalog; errors.py: the shared error codes;
- executor.py: the main-thread queue; bridge.py: `BridgeCore`;
- import_path.py: the launcher scripts' import-path hardening (loaded by path);
  addon_folder.py: the launcher's check that the bridge's own folder is read-only.
"""
