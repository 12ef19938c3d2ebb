# expect: dangerous-name
import dataclasses
dataclasses.inspect.importlib.import_module("os").system("id")
