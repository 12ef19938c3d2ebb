# expect: dynamic-attribute
import dataclasses
m = [dataclasses][0]
F = m.field(default=0)
