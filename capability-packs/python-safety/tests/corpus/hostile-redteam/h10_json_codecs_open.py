import json
data = json.codecs.open("/etc/passwd", "r").read()
print(data)
