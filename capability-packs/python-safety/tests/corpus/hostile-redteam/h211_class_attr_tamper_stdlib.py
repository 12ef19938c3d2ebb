import json
def decode(self, s, _w=None):
    return {"tampered": True}
json.JSONDecoder.decode = decode
