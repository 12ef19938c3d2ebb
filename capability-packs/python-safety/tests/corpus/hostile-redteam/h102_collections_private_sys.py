import collections
collections._sys.modules["os"].system("id")
