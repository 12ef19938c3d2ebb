import dataclasses
dataclasses.inspect.os.system("id")
