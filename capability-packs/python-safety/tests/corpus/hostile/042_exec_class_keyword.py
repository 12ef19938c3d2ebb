# expect: dangerous-builtin
class Payload(metaclass=lambda n, b, d: exec(d["code"])):
    code = "import os; os.system('id')"
