import importlib
importlib.import_module("os")
