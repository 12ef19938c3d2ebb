# expect: import-not-allowed
from importlib import import_module
import_module("os").system("id")
