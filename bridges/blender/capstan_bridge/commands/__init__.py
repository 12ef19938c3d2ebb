"""Typed primitive commands over scene data, one `@command` declaration beside each
handler (see `capstan_bridge/command.py`). The registry is discovered by importing
every module of this package; modules without declarations are helpers.

Adding a command: write the handler with its `@command(...)` in the module of its
domain (or a new module here), then run `scripts/bridgegen.py` to regenerate the
catalog and the SDK's typed client."""
