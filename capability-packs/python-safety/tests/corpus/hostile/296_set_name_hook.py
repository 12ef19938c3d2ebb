# expect: implicit-code
class Hook:
    def __set_name__(self, owner, name):
        print(owner, name)
