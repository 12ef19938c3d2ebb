import dataclasses
print(dataclasses.inspect.linecache.getlines("/etc/passwd"))
