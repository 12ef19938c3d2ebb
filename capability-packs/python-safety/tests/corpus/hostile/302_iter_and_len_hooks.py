# expect: implicit-code
class Points:
    def __len__(self):
        return 3

    def __iter__(self):
        return iter([(0, 0, 0)] * 3)


result = Points()
