# expect: dangerous-builtin
ｅｖａｌ("__import__('os').system('id')")
