#!/usr/bin/python3
"""A small HTTP(S) JSON endpoint for assay's http: adapter tests. It prints "port N" on stdout
once it listens on 127.0.0.1 (port 0 = any free port), then serves POST requests whose body is
{"text": "..."} or {"texts": [...]} as the mode says:

    ok         {"scores": [0.25, 0.75]}  ({"scores": [[...], ...]} for {"texts"})
    hosted     [[{"label": "POSITIVE", "score": 0.75}, {"label": "NEGATIVE", "score": 0.25}]]
    429-once   the first request gets 429 with Retry-After: 1, every later one is answered
    429-long   the first request gets 429 with Retry-After: 100000, every later one is answered
    huge-chunked  answers with a chunked body of 64 MiB
    huge-length   answers with a body of 64 MiB announced by Content-Length
    500        always 500
    slow       answers after 3 seconds
    truncated  announces 100 bytes of body, sends 20 and closes the connection
    auth       answers only when the Authorization header is "Bearer s3cret" (else 401)

    http_fault_server.py MODE [--cert cert.pem --key key.pem]   (HTTPS with the given pair)
"""
import argparse
import json
import ssl
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

parser = argparse.ArgumentParser()
parser.add_argument("mode")
parser.add_argument("--cert")
parser.add_argument("--key")
args = parser.parse_args()
lock = threading.Lock()
count = {"n": 0}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def send(self, status, answer, headers=()):
        data = json.dumps(answer).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        with lock:
            count["n"] += 1
            n = count["n"]
        one = [0.25, 0.75]
        answer = {"scores": [one] * len(body["texts"])} if "texts" in body else {"scores": one}
        mode = args.mode
        if mode == "hosted":
            return self.send(200, [[{"label": "POSITIVE", "score": 0.75},
                                    {"label": "NEGATIVE", "score": 0.25}]])
        if mode == "429-once" and n == 1:
            return self.send(429, {"error": "slow down"}, [("Retry-After", "1")])
        if mode == "429-long" and n == 1:
            return self.send(429, {"error": "come back tomorrow"}, [("Retry-After", "100000")])
        if mode in ("huge-chunked", "huge-length"):
            return self.send_huge(mode == "huge-chunked")
        if mode == "500":
            return self.send(500, {"error": "broken"})
        if mode == "slow":
            time.sleep(3)
        if mode == "truncated":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "100")
            self.end_headers()
            self.wfile.write(b'{"scores": [0.25, 0')
            self.wfile.flush()
            self.close_connection = True
            return
        if mode == "auth" and self.headers.get("Authorization") != "Bearer s3cret":
            return self.send(401, {"error": "unauthorised"})
        self.send(200, answer)

    def send_huge(self, chunked):
        piece = b"[" + b"0," * 32767 + b"0]"  # 64 KiB
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        if chunked:
            self.send_header("Transfer-Encoding", "chunked")
        else:
            self.send_header("Content-Length", str(len(piece) * 1024))
        self.end_headers()
        self.close_connection = True
        try:
            for _ in range(1024):
                if chunked:
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
                else:
                    self.wfile.write(piece)
            if chunked:
                self.wfile.write(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass

    def log_message(self, *unused):
        pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
if args.cert:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(args.cert, args.key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
print("port %d" % server.server_address[1], flush=True)
server.serve_forever()
