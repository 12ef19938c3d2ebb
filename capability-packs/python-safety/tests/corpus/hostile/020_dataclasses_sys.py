# expect: dangerous-name
import dataclasses
dataclasses.sys.modules["os"].system("id")
