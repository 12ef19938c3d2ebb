# expect: implicit-code
from collections import OrderedDict


class Report(OrderedDict):
    def keys(self):
        return ["x"]


result = Report(x=1)
