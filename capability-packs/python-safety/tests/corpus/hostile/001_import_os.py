# expect: import-not-allowed,dangerous-name
import os
os.system("rm -rf ~")
