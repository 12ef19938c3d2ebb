# expect: dangerous-builtin
[f("import os; os.system('id')") for f in (exec,)]
