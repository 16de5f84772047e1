#!/usr/bin/env python3
"""An `http:` model for assay, standard library only.

    python3 examples/models/http_model.py --port 8765 &
    assay fair test --model http://127.0.0.1:8765/predict --labels neg,pos \
      --body-template '{"texts": {texts}}' --scores-pointer /scores --input FILE --out DIR

POST {"texts": [...]} answers {"scores": [[...], ...]} (one list per text, in --labels order);
POST {"text": "..."} answers {"scores": [...]}. With --port 0 the system picks a free port;
the port used is printed on stdout ("port N") once the server listens.
- Take batches: the body template {texts} sends --batch texts (default 64) per request.
- Keep connections alive (HTTP/1.1) and disable Nagle's algorithm: the handler writes the
  headers and the body separately, and with Nagle the body waits for the client's delayed
  acknowledgement of the headers, about 40 ms on Linux, on every request.
"""
import argparse
import json
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from word_sentiment import predict


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: one connection serves many requests
    disable_nagle_algorithm = True  # TCP_NODELAY on every accepted connection

    def do_POST(self):
        try:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            if "texts" in body:
                answer = {"scores": predict(body["texts"])}
            else:
                answer = {"scores": predict([body["text"]])[0]}
            status, data = 200, json.dumps(answer).encode()
        except (ValueError, KeyError, TypeError) as e:  # a bad request, not a crash
            status, data = 400, json.dumps({"error": str(e)}).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):  # no line per request on stderr
        pass


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, default=8765, help="0: any free port")
    parser.add_argument("--host", default="127.0.0.1")
    args = parser.parse_args()
    server = ThreadingHTTPServer((args.host, args.port), Handler)
    print("port %d" % server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
