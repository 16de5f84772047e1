#!/usr/bin/python3
"""A scikit-learn text classifier (CountVectorizer + LogisticRegression) served over HTTP the
way model servers serve it, to put `assay fair serve` in front of:

    sklearn_model_server.py --train train.tsv --protocol kserve|hf|torchserve
                            [--name sentiment] [--port 0] [--record requests.jsonl]

--train: a TSV with a header and the columns `text` and `label`. The labels are scikit-learn's
classes_ (sorted). It prints "port N" on stdout once it listens on 127.0.0.1.

  kserve      KServe v2 / Open Inference Protocol, as KServe's sklearn server speaks it:
              POST /v2/models/NAME/infer with one BYTES input tensor of n texts answers the
              output tensor "probabilities" (FP64, shape [n, labels]); GET /v2/health/ready,
              GET /v2/models/NAME (metadata; the labels in "parameters").
  hf          Hugging Face text classification (an Inference Endpoint, a pipeline behind a web
              server): POST / {"inputs": "..." or [...], "parameters": {...}} answers
              [[{"label", "score"}, ...], ...], every label by descending score.
  torchserve  TorchServe's inference API: POST /predictions/NAME with one text (a JSON string,
              {"text": "..."} or {"data": "..."}) answers {label: probability, ...}; GET /ping.

--record FILE: every request body is appended to FILE as one JSON line, so a test can see what
reached the model (the fields a proxy forwarded).
"""
import argparse
import csv
import json
import threading
import warnings
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from sklearn.feature_extraction.text import CountVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline


def train(path):
    texts, labels = [], []
    with open(path, encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
            texts.append(row["text"])
            labels.append(row["label"])
    model = make_pipeline(CountVectorizer(), LogisticRegression())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model.fit(texts, labels)
    return model


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--train", required=True)
    parser.add_argument("--protocol", required=True, choices=["kserve", "hf", "torchserve"])
    parser.add_argument("--name", default="sentiment")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--record")
    args = parser.parse_args()
    model = train(args.train)
    labels = [str(c) for c in model.classes_]
    record = open(args.record, "a", encoding="utf-8") if args.record else None
    lock = threading.Lock()

    def proba(texts):
        return [[float(p) for p in row] for row in model.predict_proba(texts)]

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True  # headers and body are separate writes

        def send(self, status, answer):
            data = json.dumps(answer).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            if args.protocol == "kserve" and self.path == "/v2/health/ready":
                return self.send(200, {"ready": True})
            if args.protocol == "kserve" and self.path == "/v2/models/" + args.name:
                return self.send(200, {
                    "name": args.name, "platform": "sklearn",
                    "inputs": [{"name": "text", "datatype": "BYTES", "shape": [-1]}],
                    "outputs": [{"name": "probabilities", "datatype": "FP64",
                                 "shape": [-1, len(labels)]}],
                    "parameters": {"labels": labels}})
            if args.protocol == "torchserve" and self.path == "/ping":
                return self.send(200, {"status": "Healthy"})
            self.send(404, {"error": "no such path " + self.path})

        def do_POST(self):
            raw = self.rfile.read(int(self.headers["Content-Length"]))
            try:
                body = json.loads(raw)
            except ValueError:
                return self.send(400, {"error": "the body is not JSON"})
            if record is not None:
                with lock:
                    record.write(json.dumps(body) + "\n")
                    record.flush()
            try:
                return self.answer(body)
            except Exception as e:  # a request this protocol does not take: 400, keep serving
                return self.send(400, {"error": "bad request: %r" % (e,)})

        def answer(self, body):
            if args.protocol == "kserve":
                if self.path != "/v2/models/%s/infer" % args.name:
                    return self.send(404, {"error": "no such model path " + self.path})
                texts = body["inputs"][0]["data"]
                rows = proba(texts)
                answer = {"model_name": args.name,
                          "outputs": [{"name": "probabilities", "datatype": "FP64",
                                       "shape": [len(texts), len(labels)],
                                       "data": [p for row in rows for p in row]}]}
                if "id" in body:
                    answer["id"] = body["id"]
                return self.send(200, answer)
            if args.protocol == "hf":
                inputs = body["inputs"]
                texts = [inputs] if isinstance(inputs, str) else inputs
                return self.send(200, [
                    sorted(({"label": l, "score": p} for l, p in zip(labels, row)),
                           key=lambda e: -e["score"])
                    for row in proba(texts)])
            if self.path != "/predictions/" + args.name:
                return self.send(404, {"error": "no such model path " + self.path})
            text = body if isinstance(body, str) else body.get("text", body.get("data"))
            return self.send(200, dict(zip(labels, proba([text])[0])))

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    print("port %d" % server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
