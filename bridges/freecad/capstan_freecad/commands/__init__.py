"""FreeCAD bridge commands, one module per domain; discovered by `command.discover()`."""
