# expect: dangerous-name,private-attribute
import random
class Leak:
    def grab(self):
        return self._os
Leak.grab(random).system("id")
