import json
json.decoder.BACKSLASH.update({"n": "X"})
json.encoder.ESCAPE_DCT["\n"] = "\\u0000"
