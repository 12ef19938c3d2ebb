# expect: dangerous-builtin
globals()["pr" + "int"] = lambda *a: None
