#!/usr/bin/python3
"""`assay fair serve` under hostile load (stdlib only).

usage: /usr/bin/python3 bench/fairness/serve_hostile.py BUILD_DIR [--seconds S]

Starts BUILD_DIR/apps/assay/assay fair serve (default options) in front of the built-in LR
(trained here on rt-polarity when ../shared/data has it, else on a small built-in set) and
measures:
  1. /health and /predict latency (p50, max) while 40 slow-loris connections drip one byte a
     second (each reconnects when the server cuts it);
  2. 1,000 simultaneous connections, each one request: counts of 200, 503 and unanswered,
     wall time, resident memory before and after;
  3. a 50 MB body, plain (Content-Length) and chunked: time to the 413, resident memory;
  4. one 60 KB text naming thousands of people (only --max-k perturbations are built, not
     one per person): time to the answer, resident memory.
"""
import json
import os
import selectors
import socket
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
RT = os.path.join(ROOT, "..", "shared", "data", "rt-polarity-v1.0")


def rss_kb(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def train_lr(assay, tmp):
    path = os.path.join(tmp, "train.tsv")
    with open(path, "w") as out:
        out.write("text\tlabel\n")
        if os.path.isdir(RT):
            for name, label in (("rt-polarity.pos", "pos"), ("rt-polarity.neg", "neg")):
                with open(os.path.join(RT, name), encoding="latin-1") as f:
                    for line in f:
                        out.write(line.strip().replace("\t", " ") + "\t" + label + "\n")
        else:
            for _ in range(6):
                out.write("the actor was wonderful\tpos\na great actor and a great film\tpos\n"
                          "the actress was awful\tneg\na female lead and a dull film\tneg\n")
    model = os.path.join(tmp, "m.lr")
    subprocess.run([assay, "model", "train-lr", "--quiet", "--train", path, "--out", model],
                   check=True)
    return model


def request(port, raw, timeout=10.0):
    """Sends `raw`, reads until the server closes; (status, seconds)."""
    t = time.monotonic()
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    s.sendall(raw)
    data = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    s.close()
    status = int(data.split(b" ", 2)[1]) if data.startswith(b"HTTP/1.") else 0
    return status, time.monotonic() - t


def predict_raw(text):
    body = json.dumps({"text": text}).encode()
    return (b"POST /predict HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
            b"Content-Type: application/json\r\nContent-Length: " + str(len(body)).encode() +
            b"\r\n\r\n" + body)


HEALTH = b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"


def pct(values, p):
    v = sorted(values)
    return v[min(len(v) - 1, int(len(v) * p))]


def slow_loris(port, seconds):
    stop = threading.Event()
    cuts = [0]

    def drip():
        conns = []
        while not stop.is_set():
            while len(conns) < 40:
                c = socket.create_connection(("127.0.0.1", port))
                c.sendall(b"POST /predict HTTP/1.1\r\n")
                conns.append(c)
            for c in list(conns):
                try:
                    c.setblocking(False)
                    try:
                        if c.recv(4096) is not None:
                            raise OSError("answered")
                    except BlockingIOError:
                        pass
                    c.send(b"x")
                except OSError:
                    cuts[0] += 1
                    c.close()
                    conns.remove(c)
            stop.wait(1.0)
        for c in conns:
            c.close()

    th = threading.Thread(target=drip)
    th.start()
    time.sleep(1.0)
    health, predict, bad = [], [], 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        for raw, out in ((HEALTH, health), (predict_raw("the actor was wonderful"), predict)):
            status, secs = request(port, raw)
            bad += status != 200
            out.append(secs * 1000)
        time.sleep(0.05)
    stop.set()
    th.join()
    print(f"40 slow-loris connections (1 byte/s), {seconds:g} s: /health p50 "
          f"{pct(health, 0.5):.2f} ms, max {max(health):.2f} ms ({len(health)} requests); "
          f"/predict p50 {pct(predict, 0.5):.2f} ms, max {max(predict):.2f} ms; "
          f"{bad} not 200; slow connections cut by the server: {cuts[0]}")


def thousand(port, pid, n=1000):
    before = rss_kb(pid)
    sel = selectors.DefaultSelector()
    states = []
    t = time.monotonic()
    for i in range(n):
        s = socket.socket()
        s.setblocking(False)
        s.connect_ex(("127.0.0.1", port))
        st = {"sock": s, "out": predict_raw("the actress was awful") if i % 2 else HEALTH,
              "in": b"", "done": False}
        states.append(st)
        sel.register(s, selectors.EVENT_WRITE, st)
    left = n
    deadline = t + 60
    while left and time.monotonic() < deadline:
        for key, ev in sel.select(timeout=0.1):
            st = key.data
            s = st["sock"]
            try:
                if st["out"]:
                    sent = s.send(st["out"])
                    st["out"] = st["out"][sent:]
                    if not st["out"]:
                        sel.modify(s, selectors.EVENT_READ, st)
                    continue
                chunk = s.recv(65536)
            except BlockingIOError:
                continue
            except OSError:
                chunk = b""
                if st["out"]:  # refused and closed before the request went out: read it
                    st["out"] = b""
                    sel.modify(s, selectors.EVENT_READ, st)
                    continue
            if chunk:
                st["in"] += chunk
            else:
                st["done"] = True
                sel.unregister(s)
                left -= 1
    wall = time.monotonic() - t
    counts = {"200": 0, "503": 0, "other": 0, "unanswered": 0}
    for st in states:
        data = st["in"]
        if not data.startswith(b"HTTP/1."):
            counts["unanswered"] += 1
        else:
            code = data.split(b" ", 2)[1].decode()
            counts[code if code in counts else "other"] += 1
        st["sock"].close()
    after = rss_kb(pid)
    print(f"{n} simultaneous connections: {counts['200']} × 200, {counts['503']} × 503, "
          f"{counts['other']} other, {counts['unanswered']} unanswered in {wall:.2f} s; "
          f"resident {before / 1024:.1f} MB before, {after / 1024:.1f} MB after")


def huge(port, pid, chunked, size=50 * 1024 * 1024):
    before = rss_kb(pid)
    s = socket.create_connection(("127.0.0.1", port))
    t = time.monotonic()
    head = b"POST /predict HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
    head += (b"Transfer-Encoding: chunked\r\n\r\n" if chunked
             else b"Content-Length: " + str(size).encode() + b"\r\n\r\n")
    s.sendall(head)
    piece = b"a" * 65536
    unit = (b"%x\r\n" % len(piece)) + piece + b"\r\n" if chunked else piece
    s.setblocking(False)
    answer = b""
    sent = 0
    while sent < size and not answer:
        try:
            answer += s.recv(65536)
            break
        except BlockingIOError:
            pass
        try:
            s.send(unit)  # a partial send only shortens the body
            sent += len(piece)
        except BlockingIOError:
            time.sleep(0.001)
        except OSError:
            break
    s.setblocking(True)
    s.settimeout(5)
    try:
        while b"\r\n\r\n" not in answer:
            chunk = s.recv(65536)
            if not chunk:
                break
            answer += chunk
    except OSError:
        pass
    ms = (time.monotonic() - t) * 1000
    s.close()
    status = answer.split(b" ", 2)[1].decode() if answer.startswith(b"HTTP/1.") else "none"
    time.sleep(0.2)
    print(f"50 MB {'chunked' if chunked else 'plain'} body: {status} after {ms:.1f} ms "
          f"({sent / 1048576:.1f} MB sent); resident {before / 1024:.1f} MB before, "
          f"{rss_kb(pid) / 1024:.1f} MB after")


def many_persons(port, pid, limit=60000):
    """One text naming thousands of different people (each a perturbation of its own)."""
    names = []
    with open(os.path.join(ROOT, "data", "names", "first-names.tsv"), encoding="utf-8") as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                names.append(line.split("\t")[0])
    parts, size = [], 0
    for i in range(0, len(names) - 1, 2):
        sentence = f"{names[i]} met {names[i + 1]}. "
        if size + len(sentence) > limit:
            break
        parts.append(sentence)
        size += len(sentence)
    text = "".join(parts)
    before = rss_kb(pid)
    status, secs = request(port, predict_raw(text), timeout=120)
    print(f"one {len(text) / 1000:.0f} KB text naming {2 * len(parts)} people: {status} after "
          f"{secs * 1000:.0f} ms, resident {before / 1024:.1f} -> {rss_kb(pid) / 1024:.1f} MB")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    build = sys.argv[1]
    seconds = float(sys.argv[sys.argv.index("--seconds") + 1]) if "--seconds" in sys.argv else 10
    assay = os.path.join(build, "apps", "assay", "assay")
    with open("/proc/loadavg") as f:
        print("load average:", " ".join(f.read().split()[:3]))
    with tempfile.TemporaryDirectory() as tmp:
        model = train_lr(assay, tmp)
        serve = subprocess.Popen([assay, "fair", "serve", "--quiet", "--upstream", "lr:" + model,
                                  "--epsilon", "1", "--listen", "127.0.0.1:0"],
                                 stdout=subprocess.PIPE, text=True)
        try:
            line = serve.stdout.readline()
            port = int(line.rsplit(":", 1)[1])
            print(f"== assay fair serve (defaults), resident {rss_kb(serve.pid) / 1024:.1f} MB")
            slow_loris(port, seconds)
            thousand(port, serve.pid)
            time.sleep(1)
            for chunked in (False, True):
                huge(port, serve.pid, chunked)
            many_persons(port, serve.pid)
        finally:
            serve.terminate()
            serve.wait(60)


if __name__ == "__main__":
    main()
