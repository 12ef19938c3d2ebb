b = __builtins__
b["exec"]("import os") if isinstance(b, dict) else None
