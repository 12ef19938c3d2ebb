# expect: private-attribute,dangerous-name
import random
random._os.system("id")
