# expect: private-attribute
import random
class Leak:
    def grab(self):
        self = random
        return self._inst
