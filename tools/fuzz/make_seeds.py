#!/usr/bin/env python3
"""Writes the seed corpora of the libFuzzer targets to tools/fuzz/corpus/<target>/.

Every seed is hand-written or generated here (none is copied from a data set), a few per
target, each small. The binary formats (safetensors, word2vec binary, the ConceptNet cache,
gzip) are built from their documented layouts. Targets whose first input byte selects options
(see each *_fuzzer.cc) get that byte prepended. Re-run after changing a format:
    python3 tools/fuzz/make_seeds.py
"""
import gzip
import json
import os
import struct
import zlib

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus")


def put(target, name, data):
    d = os.path.join(ROOT, target)
    os.makedirs(d, exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def csv_seeds():
    # mode byte: bits 0-1 delimiter (, \t ; |), 2 no header, 3 no quoting, 4 Latin-1,
    # 5 any field count
    put("csv", "header_quoted", b"\x00" + b'user,item,rating\n1,10,4\n2,"a, ""b""\nc",3.5\n')
    put("csv", "tsv_crlf", b"\x01" + b"a\tb\tc\r\n1\t2\t3\r\n\r\n4\t5\t6\r\n")
    put("csv", "no_header_latin1", b"\x14" + b"caf\xe9,1e3\nna\xefve,-2\n")
    put("csv", "ragged_unquoted", b"\x2b" + b'x;"y\n1;2;3\n4\n')
    put("csv", "bom_semicolon", b"\x02" + b"\xef\xbb\xbfname;score\n\xc3\xa9t\xc3\xa9;0.5\n")


def jsonl_seeds():
    put("jsonl", "objects", '{"text": "a film", "label": 1}\n\n{"text": "bad", "x": [1, 2.5e3, null]}\n')
    put("jsonl", "mixed", '[1, 2]\n"just a string"\n{"text": "\\u00e9t\\u00e9 \\ud83d\\ude00"}\r\n')
    put("jsonl", "pairs", '{"original": "The cat sat.", "generated": "The [[dog]] sat."}\n'
        '{"ori_text": "x", "adv_text": "y"}\n')


def vectors_text_seeds():
    # mode byte: bits 0-1 format (word2vec, glove, fasttext, word2vec), bits 2-4 limit
    put("vectors_text", "word2vec", b"\x00" + b"3 4\nking 0.1 0.2 0.3 0.4\nqueen 0.5 -0.25 1e-3 2\n"
        b"man -1 0 0 1.5\n")
    put("vectors_text", "glove", b"\x01" + "the 0.418 0.24968 -0.41242\n, 0.013441 0.23682 -0.16899\n"
        "caf\u00e9 1 2 3\n".encode())
    put("vectors_text", "fasttext_dup", b"\x06" + b"4 2\r\n</s> 0 0\r\nword 1 1\r\nword 2 2\r\nz 3 3\r\n")
    put("vectors_text", "limit", b"\x08" + b"2 3\na 1 2 3 \nb 4 5 6\n")
    # found by the fuzzer: a header declaring 3.3 million vectors of 93773 values
    put("vectors_text", "huge_header", b"#3337777 93773")


def vectors_binary_seeds():
    def binary(words, dim, newline=True):
        out = b"%d %d\n" % (len(words), dim)
        for w, vec in words:
            out += w.encode() + b" " + struct.pack("<%df" % dim, *vec)
            if newline:
                out += b"\n"
        return out
    put("vectors_binary", "three", b"\x00" + binary([("king", [0.1, 0.2, 0.3]),
                                                     ("queen", [0.4, -0.5, 0.6]),
                                                     ("man", [1, 0, -1])], 3))
    put("vectors_binary", "no_newlines", b"\x00" + binary([("a", [1, 2]), ("b", [3, 4])], 2, False))
    put("vectors_binary", "limit_dup", b"\x02" + binary([("x", [1]), ("x", [2]), ("y", [3])], 1))


def arpa_seeds():
    put("arpa", "bigram", """\\data\\
ngram 1=5
ngram 2=4

\\1-grams:
-1.0 <s> -0.5
-0.7 the -0.3
-1.2 cat -0.2
-0.9 </s>
-2.0 <unk>

\\2-grams:
-0.3 <s> the
-0.4 the cat
-0.2 cat </s>
-1.5 the </s>

\\end\\
""")
    put("arpa", "trigram_no_unk", """
\\data\\
ngram 1=4
ngram 2=2
ngram 3=1

\\1-grams:
-0.5\t<s>\t-0.1
-0.6\ta\t-0.2
-0.7\tb
-0.8\t</s>

\\2-grams:
-0.2\t<s>\ta\t-0.05
-0.3\ta\tb

\\3-grams:
-0.1\t<s>\ta\tb
\\end\\
""")
    put("arpa", "unigram_crlf", "\\data\\\r\nngram 1=2\r\n\r\n\\1-grams:\r\n-99 <s>\r\n-0.3 </s>\r\n"
        "\\end\\\r\n")


def conceptnet_dump_seeds():
    def line(rel, start, end, weight, uri=None):
        uri = uri or "/a/[/r/%s/,%s/,%s/]" % (rel, start, end)
        return "%s\t/r/%s\t%s\t%s\t%s\n" % (uri, rel, start, end,
                                           json.dumps({"dataset": "/d/test", "weight": weight}))
    text = (line("IsA", "/c/en/ice_cream/n/wikt/en_1", "/c/en/food", 2.0)
            + line("Antonym", "/c/en/hot", "/c/en/cold/a", 1.5)
            + line("FormOf", "/c/en/mice", "/c/en/mouse/n", 1.0)
            + line("Synonym", "/c/fr/chat", "/c/en/cat", 1.0)
            + line("RelatedTo", "/c/en/dog", "/c/en/bark", 0.5)
            + line("DerivedFrom", "/c/en/kindness", "/c/en/kind", 1.0)
            + line("Synonym", "/c/en/big", "/c/en/large", 3.25))
    put("conceptnet_dump", "plain.csv", text)
    put("conceptnet_dump", "gzip.csv.gz", gzip.compress(text.encode(), mtime=0))
    put("conceptnet_dump", "bad_weight",
        "/a/x\t/r/IsA\t/c/en/a\t/c/en/b\t{\"weight\": \"heavy\"}\n")


def conceptnet_cache_seeds():
    relations = {"IsA": 0, "Antonym": 1, "FormOf": 2, "DerivedFrom": 3, "Synonym": 4}

    def cache(terms, edges):
        terms = sorted(set(terms), key=lambda t: t.encode())
        index = {t: i for i, t in enumerate(terms)}
        offsets, strings = [0], b""
        for t in terms:
            strings += t.encode()
            offsets.append(len(strings))
        string_bytes = len(strings)
        strings += b"\0" * ((-len(strings)) % 4)
        es = sorted({(relations[r], index[s], index[t], w) for r, s, t, w in edges})
        by_source = sorted(es, key=lambda e: (e[0], e[1], e[2]))
        by_target = sorted(es, key=lambda e: (e[0], e[2], e[1]))
        body = struct.pack("<%dI" % len(offsets), *offsets) + strings
        for table in (by_source, by_target):
            for rel, s, t, w in table:
                body += struct.pack("<IIfI", s, t, w, rel)
        header = b"ASSAYCN\0" + struct.pack("<IIIIQQqII8s", 1, 64, len(terms), len(es),
                                             string_bytes, 1234, 5678,
                                             zlib.crc32(body) & 0xffffffff, 0, b"\0" * 8)
        assert len(header) == 64
        return header + body
    small = cache(["dog", "animal", "cat", "hot", "cold"],
                  [("IsA", "dog", "animal", 2.0), ("IsA", "cat", "animal", 1.0),
                   ("Antonym", "hot", "cold", 1.5), ("Antonym", "cold", "hot", 1.5)])
    # first byte: odd = the target fixes the CRC field before reading
    put("conceptnet_cache", "small", b"\x00" + small)
    put("conceptnet_cache", "small_fixcrc", b"\x01" + small)
    put("conceptnet_cache", "empty", b"\x01" + cache([], []))
    put("conceptnet_cache", "one_edge", b"\x00" + cache(["a", "b"], [("Synonym", "a", "b", 0.5)]))


def modification_set_seeds():
    def mods(modifications, **extra):
        j = {"format": "assay-rec-mods/1", "data": "ratings.csv", "algorithm": "funk-svd",
             "heuristic": "AMU", "size": len(modifications), "trial": 0, "campaign_seed": 42,
             "run_seed": 7, "model_seed": 9, "k": 10,
             "oracles": {"top-out": 0.5, "jaccard": 0.25, "aod": 1.5, "rbo": 0.75},
             "modifications": modifications}
        j.update(extra)
        return json.dumps(j, indent=1)
    put("modification_set", "add_remove_change", mods([
        {"kind": "add", "user": "1", "item": "10", "value": 4},
        {"kind": "remove", "user": "2", "item": "11"},
        {"kind": "change", "user": "u x", "item": "i-y", "value": 2.5}]))
    put("modification_set", "empty", mods([], heuristic="RRAND", k=1))
    # found by the fuzzer: a value beyond float range (read as infinity, written as null)
    put("modification_set", "huge_value", mods([{"kind": "add", "user": "1", "item": "10",
                                                 "value": 1e39}]))
    put("modification_set", "unknown_user", mods([{"kind": "add", "user": "99", "item": "10",
                                                   "value": 1}]))


def aeon_annotation_seeds():
    header = "ori_text,adv_text,consistency,fluency,SemEval,SynEval\n"
    rows = [('"The film, sadly, fails."', "The [[movie]] fails.", "4.33", "3.67", "0.91", "0.8"),
            ("good", "gud", "1.0", "1.33", "0.2", "0.1"),
            ('"A ""quoted"" word"', "ok", "2.67", "5", "0.5", "0.55"),
            ("x", "y", "3", "2", "0.7", "0.3")]
    body = "".join(",".join(r) + "\n" for r in rows)
    put("aeon_annotations", "consistency", b"\x00" + (header + body).encode())
    put("aeon_annotations", "fluency_crlf", b"\x03" + (header + body).replace("\n", "\r\n").encode())
    put("aeon_annotations", "out_of_range", b"\x00" + (header + "a,b,7,1,0.5,0.5\n").encode())


def attribute_file_seeds():
    put("attribute_file", "religion", """# comment
attribute religion
groups christian muslim jewish
active Christian Muslim Jewish
anchor christianity islam judaism
member priest imam rabbi
member church mosque synagogue
""")
    put("attribute_file", "two_groups", "attribute age\r\ngroups young old\r\nactive young old\r\n"
        "member boy -\r\nmember - old_man\r\n")
    put("attribute_file", "race", "attribute race\ngroups white black asian\n"
        "active white Black Asian\nanchor european african asian\nmember - African_American -\n")


def safetensors_seeds():
    def st(tensors):
        header, data = {}, b""
        for name, dtype, shape, raw in tensors:
            header[name] = {"dtype": dtype, "shape": shape,
                            "data_offsets": [len(data), len(data) + len(raw)]}
            data += raw
        h = json.dumps(header).encode()
        return struct.pack("<Q", len(h)) + h + data
    put("safetensors", "f32_f16", st([("w", "F32", [2, 2], struct.pack("<4f", 1, 2, 3, 4)),
                                      ("b", "F16", [2], struct.pack("<2e", 0.5, -1))]))
    ids = st([("ids", "I64", [3], struct.pack("<3q", 1, 2, 3))])
    n = struct.unpack("<Q", ids[:8])[0]
    h = b'{"__metadata__": {"format": "pt"}, ' + ids[9:8 + n]
    put("safetensors", "metadata_i64", struct.pack("<Q", len(h)) + h + ids[8 + n:])
    put("safetensors", "bf16_scalar", st([("s", "BF16", [], b"\x80\x3f"),
                                          ("e", "F32", [0], b"")]))


def tokenizer_seeds():
    put("tokenizer", "plain", "Hello, world! The quick brown fox.")
    put("tokenizer", "accents", "Caf\u00e9 na\u00efve \u00c9T\u00c9 r\u00e9sum\u00e9s")
    put("tokenizer", "cjk_controls", "\u4e2d\u6587 text\t\u0000\u200b tabs\r\nand \ufeff marks")
    put("tokenizer", "long_word", "unaffable " + "x" * 120 + " running")


def serve_request_seeds():
    # First byte even: POST /predict; odd: an Open Inference infer body.
    put("serve_request", "text", '0{"text": "the king is here"}')
    put("serve_request", "texts", '0{"texts": ["he is", "she is"], "parameters": {"a": 1}}')
    put("serve_request", "inputs", '0{"inputs": "the man"}')
    put("serve_request", "inputs_list", '0{"inputs": ["a", "b"]}')
    put("serve_request", "infer",
        '1{"id": "r1", "inputs": [{"name": "text", "datatype": "BYTES", "shape": [2, 1], '
        '"data": [["he is"], ["she is"]]}], "parameters": {"epsilon": 0.5}}')


def cmd_output_seeds():
    # First byte odd: the labels are given as options too; the rest is the child's output.
    answers = '{"id": 1, "scores": [0.6, 0.4]}\n{"id": 0, "scores": [0.1, 0.9]}\n'
    put("cmd_output", "labels_line", '0{"labels": ["neg", "pos"]}\n' + answers)
    put("cmd_output", "labels_given", "1" + answers)
    put("cmd_output", "label_objects",
        '0{"labels": ["neg", "pos"]}\n{"id": 0, "scores": [{"label": "pos", "score": 0.5}, '
        '{"label": "neg", "score": 0.5}]}\n{"id": 1, "scores": [1e-300, 1]}\n')


def http_answer_seeds():
    # First byte: bit 0 one request for the batch, bit 1 scores at /outputs/0/data, bit 2 a
    # label map; the rest is what the server answers every request.
    put("http_answer", "scores", "\x00[0.25, 0.75]")
    put("http_answer", "batch", "\x01[[0.25, 0.75], [0.5, 0.5]]")
    put("http_answer", "label_objects",
        '\x04[{"label": "POSITIVE", "score": 0.9}, {"label": "NEGATIVE", "score": 0.1}]')
    put("http_answer", "open_inference",
        '\x03{"outputs": [{"name": "p", "shape": [2, 2], "datatype": "FP32", '
        '"data": [0.1, 0.9, 0.6, 0.4]}]}')
    put("http_answer", "name_object", '\x05[{"NEGATIVE": 0.3, "POSITIVE": 0.7}, '
        '{"NEGATIVE": 0.8, "POSITIVE": 0.2}]')


if __name__ == "__main__":
    for make in (csv_seeds, jsonl_seeds, vectors_text_seeds, vectors_binary_seeds, arpa_seeds,
                 conceptnet_dump_seeds, conceptnet_cache_seeds, modification_set_seeds,
                 aeon_annotation_seeds, attribute_file_seeds, safetensors_seeds, tokenizer_seeds,
                 serve_request_seeds, cmd_output_seeds, http_answer_seeds):
        make()
