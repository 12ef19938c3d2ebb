# expect: private-attribute
import dataclasses
f = dataclasses._create_fn("f", [], ["import os", "os.system('id')"])
f()
