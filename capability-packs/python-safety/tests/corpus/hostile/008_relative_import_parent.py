# expect: import-relative
from ..commands import python_exec as pe
pe.run_unchecked("import os")
