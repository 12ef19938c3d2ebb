# expect: private-attribute
import dataclasses
self = dataclasses
run = self._create_fn("run", [], ["return __import__('os').system('id')"])
run()
