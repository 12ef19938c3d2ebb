"""A script's time and memory, from Blender's environment, with ceilings.

The deadline must stay shorter than the host's deadline for the whole call (the
catalog's `timeout_s` for `execute_python`), so that what the agent sees is the script's
own `script_timeout` error naming the limit, not the host giving up on the bridge.
"""

import json
import os

TIMEOUT_ENV = "CAPSTAN_BRIDGE_SCRIPT_TIMEOUT_S"
MEMORY_ENV = "CAPSTAN_BRIDGE_SCRIPT_MEMORY_MIB"
DEFAULT_TIMEOUT_S = 30.0
DEFAULT_MEMORY_MIB = 1024
# Time the bridge needs after the deadline to stop the script and answer.
ANSWER_MARGIN_S = 10.0


class Limits:
    def __init__(self, timeout_s, memory_mib):
        self.timeout_s = timeout_s
        self.memory_mib = memory_mib


def host_timeout_s():
    """The host's deadline for one execute_python call, from the shared catalog."""
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "commands.json")
    with open(path, encoding="utf-8") as f:
        return float(json.load(f)["commands"]["execute_python"]["timeout_s"])


def _number(name, default, kind):
    raw = os.environ.get(name)
    if not raw:
        return default
    try:
        value = kind(raw)
    except ValueError:
        return default
    return value if value > 0 else default


def current():
    ceiling = host_timeout_s() - ANSWER_MARGIN_S
    timeout = min(_number(TIMEOUT_ENV, DEFAULT_TIMEOUT_S, float), ceiling)
    return Limits(timeout_s=timeout, memory_mib=_number(MEMORY_ENV, DEFAULT_MEMORY_MIB, int))
