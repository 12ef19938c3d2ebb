"""Blender, as the shared bridge core (`core/`) sees it."""

from .core.app import App
from .errors import APP_ERROR

APP = App(
    name="blender",
    display_name="Blender",
    commands_package=__package__ + ".commands",
    declared_in="bridges/blender/capstan_bridge/commands/",
    app_error=APP_ERROR,
)
