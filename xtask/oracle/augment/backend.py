#!/usr/bin/env python3
"""A loopback stand-in for Augment's backend: records every request (JSON lines), answers
the smallest replies that let `auggie --print` go on (one model for /get-models, nothing
missing for /find-missing, {} elsewhere) and refuses the chat request (400), which carries
the rules. Usage: backend.py OUT PORTFILE (it listens on a free port, written there)."""
import json, sys
from http.server import BaseHTTPRequestHandler, HTTPServer
OUT, PORTFILE = sys.argv[1], sys.argv[2]
REPLIES = {
    "/get-models": {"default_model": "oracle", "models": [{"name": "oracle", "internal_name": "oracle",
                    "suggested_prefix_char_count": 0, "suggested_suffix_char_count": 0}], "feature_flags": {}},
    "/find-missing": {"unknown_memory_names": [], "nonindexed_blob_names": []},
}
class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def _reply(self):
        n = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(n) if n else b""
        try:
            body = json.loads(raw)
        except ValueError:
            body = raw.decode("utf-8", "replace")
        with open(OUT, "a") as f:
            f.write(json.dumps({"method": self.command, "path": self.path, "body": body}) + "\n")
        path = self.path.split("?")[0]
        code, reply = (400, {"error": "oracle: recorded, refused"}) if "chat" in path else (200, REPLIES.get(path, {}))
        msg = json.dumps(reply).encode()
        try:
            self.send_response(code)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(msg)))
            self.end_headers()
            self.wfile.write(msg)
        except (BrokenPipeError, ConnectionResetError):
            pass
    do_POST = do_GET = do_PUT = _reply
    def log_message(self, *args):
        pass
server = HTTPServer(("127.0.0.1", 0), Handler)
open(PORTFILE, "w").write(str(server.server_address[1]))
server.serve_forever()
