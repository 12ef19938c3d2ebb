# expect: import-relative
from . import capstan_bridge
print(capstan_bridge.server.token)
