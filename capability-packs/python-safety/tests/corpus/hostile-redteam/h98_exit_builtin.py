exit(0)
