# expect: dangerous-builtin
𝐞𝐱𝐞𝐜("import os; os.system('id')")
