# expect: implicit-code
import re


class Key(str):
    def __hash__(self):
        return 1


re.compile(Key("a+"))
