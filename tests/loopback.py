"""The tests' own HTTP servers on loopback (model servers, agent servers, a study's recruiter), served from a thread."""

from __future__ import annotations

import socketserver
import threading

#: How often a serving thread looks for `stop_serving`: socketserver's default half second would be paid at every stop.
POLL_S = 0.02


def serving_thread(httpd: socketserver.BaseServer, name: str = "loopback-http") -> threading.Thread:
    """A daemon thread (not started) that serves `httpd` until `stop_serving`."""
    return threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": POLL_S}, name=name, daemon=True)


def stop_serving(httpd: socketserver.BaseServer) -> None:
    """Stop serving and close the listening socket."""
    httpd.shutdown()
    httpd.server_close()
