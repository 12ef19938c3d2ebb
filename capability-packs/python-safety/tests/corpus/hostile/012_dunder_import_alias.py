# expect: dangerous-builtin
loader = __import__
loader("subprocess").call(["sh", "-c", "id"])
