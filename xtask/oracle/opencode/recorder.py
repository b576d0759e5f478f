#!/usr/bin/env python3
"""Loopback recorder: logs every request (method, path, headers, body) as JSON lines; answers 400."""
import sys, json, http.server, socketserver
out = sys.argv[1]; portfile = sys.argv[2]
class H(http.server.BaseHTTPRequestHandler):
    def _h(self):
        n = int(self.headers.get('Content-Length') or 0)
        body = self.rfile.read(n) if n else b''
        with open(out, 'a') as f:
            f.write(json.dumps({"method": self.command, "path": self.path,
                                "body": body.decode('utf-8', 'replace')}) + "\n")
        msg = json.dumps({"type": "error", "error": {"type": "invalid_request_error",
                          "message": "oracle recorder: refusing"}}).encode()
        self.send_response(400)
        self.send_header('Content-Type', 'application/json')
        self.send_header('Content-Length', str(len(msg)))
        self.end_headers(); self.wfile.write(msg)
    do_POST = do_GET = do_PUT = do_HEAD = _h
    def log_message(self, *a): pass
class S(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
s = S(('127.0.0.1', 0), H)
open(portfile, 'w').write(str(s.server_address[1]))
s.serve_forever()
