eval("1+1")
