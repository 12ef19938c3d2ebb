# expect: dangerous-name,dynamic-attribute
import re
b = re.enum.bltns
run = b.getattr(b, "ex" + "ec")
run("import os; os.system('id')")
