# expect: import-not-allowed
from os import system
system("id > /tmp/owned")
