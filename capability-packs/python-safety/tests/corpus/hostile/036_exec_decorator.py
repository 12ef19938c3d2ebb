# expect: dangerous-builtin
@exec
@(lambda f: f.__doc__)
def payload():
    "import os; os.system('id')"
