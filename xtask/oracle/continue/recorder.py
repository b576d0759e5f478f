#!/usr/bin/env python3
"""Loopback recorder: logs every request (method, path, body) as JSON lines, answers
chat completions with a minimal valid reply ("ok"), streaming or not."""
import json, sys, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOG = sys.argv[1]
PORTFILE = sys.argv[2]

class H(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def log_message(self, *a): pass
    def _rec(self, body):
        with open(LOG, "a") as f:
            f.write(json.dumps({"method": self.command, "path": self.path, "body": body}) + "\n")
    def _send(self, code, ctype, data):
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
    def do_GET(self):
        self._rec(None)
        self._send(404, "application/json", b'{"error":{"message":"not found"}}')
    def do_POST(self):
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n).decode("utf-8", "replace")
        try: body = json.loads(raw)
        except Exception: body = raw
        self._rec(body)
        if "chat/completions" not in self.path:
            return self._send(404, "application/json", b'{"error":{"message":"not found"}}')
        model = body.get("model", "m") if isinstance(body, dict) else "m"
        now = int(time.time())
        if isinstance(body, dict) and body.get("stream"):
            chunks = [
                {"id": "x", "object": "chat.completion.chunk", "created": now, "model": model,
                 "choices": [{"index": 0, "delta": {"role": "assistant", "content": "ok"}, "finish_reason": None}]},
                {"id": "x", "object": "chat.completion.chunk", "created": now, "model": model,
                 "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
            ]
            data = "".join("data: " + json.dumps(c) + "\n\n" for c in chunks) + "data: [DONE]\n\n"
            return self._send(200, "text/event-stream", data.encode())
        resp = {"id": "x", "object": "chat.completion", "created": now, "model": model,
                "choices": [{"index": 0, "message": {"role": "assistant", "content": "ok"}, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}
        self._send(200, "application/json", json.dumps(resp).encode())

srv = ThreadingHTTPServer(("127.0.0.1", 0), H)
with open(PORTFILE + ".tmp", "w") as f: f.write(str(srv.server_address[1]))
import os; os.rename(PORTFILE + ".tmp", PORTFILE)
srv.serve_forever()
