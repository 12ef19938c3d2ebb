# expect: dangerous-builtin
fns = [print, exec]
fns[1]("import os; os.system('id')")
