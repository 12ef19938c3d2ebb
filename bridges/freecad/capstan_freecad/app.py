"""FreeCAD, as the shared bridge core (`core/`) sees it."""

from .core.app import App
from .errors import APP_ERROR

APP = App(
    name="freecad",
    display_name="FreeCAD",
    commands_package=__package__ + ".commands",
    declared_in="bridges/freecad/capstan_freecad/commands/",
    app_error=APP_ERROR,
    data_noun="document data",
)
