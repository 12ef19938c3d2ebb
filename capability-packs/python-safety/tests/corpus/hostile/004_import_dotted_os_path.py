# expect: import-not-allowed
import os.path
print(os.path.expanduser("~/.ssh"))
