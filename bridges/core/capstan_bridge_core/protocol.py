"""Constants of protocol capstan-bridge/1, shared by every bridge (Blender's add-on,
FreeCAD's bridge). The application a bridge serves is not a constant of the protocol:
each app names itself in its `app.py` (`core.app.App`)."""

PROTOCOL = 1
HOST = "127.0.0.1"
FIRST_PORT = 9876
LAST_PORT = 9885
BRIDGE_PATH = "/bridge"
PING_PATH = "/ping"
MAX_BODY_BYTES = 8 * 1024 * 1024
MAX_ID_LENGTH = 128
# A kept-alive connection that sends nothing for this long is closed (the host
# notices before reusing it and opens a new one).
IDLE_CONNECTION_SECONDS = 60.0
# A new connection must send a whole request head (request line and headers) within
# this of being accepted, and a kept one within this of its next request's first byte;
# otherwise it is closed, unanswered. Until then it holds no thread (http_server.py).
FIRST_HEAD_SECONDS = 2.0
# A request's body must arrive whole within this from the request's first byte.
REQUEST_READ_SECONDS = 10.0
# Writing an answer to a client that does not read it gives up after this.
WRITE_SECONDS = 30.0
# A connection answered and then closed by the front door is drained for at most this
# long, so the client reads the answer before the close (an unread request body would
# otherwise turn the close into a reset that can discard it).
LINGER_SECONDS = 1.0
# Threads that run authorised requests (one each, from a complete head to its answer);
# past this, a request gets 503 `busy`. Idle and token-less connections never hold one.
MAX_CONNECTIONS = 32
# Connections the front door holds while they have no request in a thread (new ones
# still sending their head, kept-alive ones between requests); past this, the one that
# has waited longest is closed to make room (http_server.py).
MAX_WAITING_CONNECTIONS = 256
MAX_HEAD_BYTES = 8192
# How long a request waits for the app's main thread before answering "busy".
JOB_TIMEOUT_SECONDS = 600.0
