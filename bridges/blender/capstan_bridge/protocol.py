"""Constants of protocol capstan-bridge/1, shared by every part of the add-on."""

PROTOCOL = 1
# The application this bridge serves: the catalog's `app`, /ping's `app`, and the server
# name packs send with every bridge call (`capstan:pack@0.2.0`).
APP = "blender"
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
# A request (line, headers, body) must arrive whole within this from its first byte.
REQUEST_READ_SECONDS = 10.0
# Writing an answer to a client that does not read it gives up after this.
WRITE_SECONDS = 30.0
# Connections with a thread of their own; the excess goes to the one overflow thread,
# which answers an authorised GET /ping and 503 to anything else (http_server.py).
MAX_CONNECTIONS = 32
MAX_OVERFLOW_CONNECTIONS = 256
OVERFLOW_READ_SECONDS = 2.0
OVERFLOW_MAX_HEAD_BYTES = 8192
# How long a request waits for the main thread before answering "busy".
JOB_TIMEOUT_SECONDS = 600.0
