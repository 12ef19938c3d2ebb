from random import _os
_os.system("id")
