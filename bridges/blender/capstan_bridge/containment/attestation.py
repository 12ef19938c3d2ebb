"""Proof that the host checked a script: an HMAC-SHA256 over the script, the checker's
digest and a single-use nonce, keyed by a secret only the host and this bridge hold.

The key: `capstan blender launch` generates one and hands it to Blender in
`CAPSTAN_BRIDGE_EXEC_KEY` (taken out of the environment at once, so nothing Blender
starts inherits it); a Blender started any other way makes its own. Either way the
bridge publishes it in its runtime file (mode 0600, beside the bearer token), where the
host's `execute_python` reads it for each call, and launch checks that the Blender it
started publishes the key it was given.

What this proves: the request was made by something that holds the key, for exactly
this script, once. The host computes the MAC only after its checker accepted the
script, in `execute_python` alone: capability packs, whose bridge calls carry the
bearer token, never see the key, and a bridge request built by anything else that
knows the token (or a replayed one) is refused. What it does not prove: a process of
the same user can read the runtime file and forge requests; it could as well drive
Blender directly. See the README's security section.
"""

import collections
import hashlib
import hmac
import os
import secrets
import threading

KEY_ENV = "CAPSTAN_BRIDGE_EXEC_KEY"
DOMAIN = b"capstan-execute-python/1\n"
# Nonces seen recently: a replayed request is refused.
_REMEMBERED_NONCES = 4096

_lock = threading.Lock()
_key = None
_seen = collections.OrderedDict()


class NotAttested(Exception):
    """The request does not prove the host checked this script."""


def _is_key(text):
    return isinstance(text, str) and len(text) == 64 and all(c in "0123456789abcdef" for c in text)


def key():
    """This bridge's key (hex), fixed for the life of the process."""
    global _key
    with _lock:
        if _key is None:
            given = os.environ.pop(KEY_ENV, None)
            _key = given if _is_key(given) else secrets.token_hex(32)
        return _key


def set_key(given):
    """Use the key the launching capstan handed over (handover.py), before any script."""
    global _key
    if not _is_key(given):
        raise ValueError("the handed exec key is not 64 hex digits")
    with _lock:
        _key = given


def message(checker, nonce, code):
    return DOMAIN + checker.encode("ascii") + b"\n" + nonce.encode("ascii") + b"\n" + code.encode("utf-8")


def mac(key_hex, checker, nonce, code):
    return hmac.new(bytes.fromhex(key_hex), message(checker, nonce, code), hashlib.sha256).hexdigest()


def verify(code, checked):
    """Raise NotAttested unless `checked` carries a valid, unused MAC for `code`."""
    checker, nonce, given = checked.get("checker"), checked.get("nonce"), checked.get("mac")
    if not all(isinstance(v, str) for v in (checker, nonce, given)):
        raise NotAttested("the request carries no attestation of the host's check")
    if checked.get("sha256") != hashlib.sha256(code.encode("utf-8")).hexdigest():
        raise NotAttested("the request does not carry the checker's verdict for this exact script")
    if not hmac.compare_digest(mac(key(), checker, nonce, code), given):
        raise NotAttested("the attestation does not match this script (it was not checked by the host this bridge trusts)")
    with _lock:
        if nonce in _seen:
            raise NotAttested("this attestation was already used (a replayed request)")
        _seen[nonce] = True
        while len(_seen) > _REMEMBERED_NONCES:
            _seen.popitem(last=False)
