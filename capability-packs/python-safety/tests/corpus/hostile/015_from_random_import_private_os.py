# expect: import-private,dangerous-name
from random import _os
_os.system("id")
