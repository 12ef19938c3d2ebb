# expect: dangerous-builtin
table = {"run": exec, "show": print}
table["run"]("import os; os.system('id')")
