# expect: dangerous-name
import json
print(json.codecs.open("/etc/passwd").read())
