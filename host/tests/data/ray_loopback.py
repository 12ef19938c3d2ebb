"""`ray` for a second node on the same loopback address as the head (tests only).

Ray 2.60 rewrites 127.0.0.1 to the machine's routable address when a node joins
(`resolve_ip_for_localhost`), and refuses a joining node when
RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0 (the setting that keeps the head and the driver on
127.0.0.1). A cluster of several nodes on one machine's loopback, which the batch test
needs so that nothing listens beyond 127.0.0.1, is therefore started through this
wrapper: the `ray` command with those two behaviours turned off. A real cluster, one
node per machine, needs none of it. Tied to the pinned Ray (2.60.0): private names.
"""
import sys

import ray._private.ray_constants as ray_constants
import ray._private.services as services

ray_constants.ENABLE_RAY_CLUSTER = True
services.resolve_ip_for_localhost = lambda host: host

from ray.scripts.scripts import main  # noqa: E402

sys.exit(main())
