"""What the host sends with execute_python: the checker's digest, a fresh nonce and the
HMAC over them with the key from the bridge's runtime file."""

import hashlib
import json
import os
import secrets

from capstan_bridge.containment import attestation

CHECKER = "c" * 64


def runtime_key():
    with open(os.path.join(os.environ["CAPSTAN_HOME"], "run", "blender", "server.json"), encoding="utf-8") as f:
        return json.load(f)["exec_key"]


def attested(code, key=None, checker=CHECKER):
    nonce = secrets.token_hex(16)
    return {
        "checker": checker,
        "sha256": hashlib.sha256(code.encode()).hexdigest(),
        "nonce": nonce,
        "mac": attestation.mac(key or runtime_key(), checker, nonce, code),
    }
