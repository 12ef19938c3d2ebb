"""Blender's bridge commands: the shared `@command` declaration (`core/command.py`,
which documents what a declaration is and what is generated from it), bound to this
package's commands (`capstan_bridge.commands`) and its error table (`errors.py`, imported
first, so its codes exist before any declaration)."""

from . import errors  # noqa: F401
from .app import APP
from .core.command import EFFECTS, Command, bind, command  # noqa: F401

discover, catalog_document, catalog_text, catalog_sha256 = bind(APP)
