#!/usr/bin/env python3
"""Tiny offline recorder: logs every request (path, headers, body) as JSON lines, answers 400 error."""
import http.server, json, sys, os

LOG = sys.argv[2]

class H(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"
    def _rec(self, body=b""):
        with open(LOG, "a") as f:
            f.write(json.dumps({"method": self.command, "path": self.path,
                                "body": body.decode("utf-8", "replace")}) + "\n")
        msg = json.dumps({"error": {"message": "oracle recorder: no model", "type": "invalid_request_error", "code": "oracle"}}).encode()
        self.send_response(400)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(msg)))
        self.end_headers()
        self.wfile.write(msg)
    def do_POST(self):
        if "chunked" in (self.headers.get("Transfer-Encoding") or "").lower():
            body = b""
            while True:
                size = int(self.rfile.readline().strip().split(b";")[0], 16)
                if size == 0:
                    self.rfile.readline()
                    break
                body += self.rfile.read(size)
                self.rfile.readline()
        else:
            n = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(n) if n else b""
        self._rec(body)
    def do_GET(self):
        self._rec()
    def log_message(self, *a):
        pass

srv = http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), H)
srv.serve_forever()
