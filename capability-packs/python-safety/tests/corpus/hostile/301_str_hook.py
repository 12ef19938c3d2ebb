# expect: implicit-code
class Message:
    def __str__(self):
        return "later"


raise ValueError(Message())
