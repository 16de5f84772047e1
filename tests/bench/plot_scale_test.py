#!/usr/bin/python3
"""bench/scale/scale_fit.py and plot_scale.py run as processes: the exponents of data with known
slopes, the SVG of the committed scale study (well-formed, every algorithm drawn on log axes),
and bad input refused with FILE:LINE, exit 2 and no output."""
import math
import os
import re
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
SCALE = os.path.join(ROOT, "bench", "scale")
RESULTS = os.path.join(SCALE, "recsys_scale.tsv")
HEADER = "size\tusers\titems\tratings\talgorithm\twall_s\tcpu_s\tmax_rss_mb\n"
NS = "{http://www.w3.org/2000/svg}"


def run(script, *args):
    return subprocess.run([sys.executable, os.path.join(SCALE, script), *args],
                          capture_output=True, text=True, check=False)


def rows(path):
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if fields[0] != "size":
                out.append(fields)
    return out


class ScaleFitTest(unittest.TestCase):
    def test_exponents_of_known_power_laws(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "r.tsv")
            with open(path, "w", encoding="utf-8") as f:
                f.write(HEADER)
                for r in (1e5, 1e6, 1e7):
                    f.write(f"s{r:g}\t10\t10\t{int(r)}\ta\t1\t{2 * r ** 1.5:g}\t{r ** 0.5:g}\n")
                    f.write(f"s{r:g}\t10\t10\t{int(r)}\tb\t1\t{r ** 0.75:g}\t{3 * r:g}\n")
                f.write("s1e8\t10\t10\t100000000\tb\tover 60s\tover 50.5\tover 9\n")
            p = run("scale_fit.py", path)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertEqual(p.stdout.splitlines(), [
                "a: CPU time ~ ratings^1.50, peak memory ~ ratings^0.50 (3 sizes)",
                "b: CPU time ~ ratings^0.75, peak memory ~ ratings^1.00 (3 sizes)"])


class PlotScaleTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.out = os.path.join(self.dir.name, "plot.svg")

    def tearDown(self):
        self.dir.cleanup()

    def test_committed_results_plot_on_log_axes(self):
        p = run("plot_scale.py", RESULTS, self.out)
        self.assertEqual(p.returncode, 0, p.stderr)
        root = ET.parse(self.out).getroot()
        texts = ["".join(t.itertext()) for t in root.iter(NS + "text")]
        self.assertIn("CPU seconds per run", texts)
        self.assertIn("Peak resident memory", texts)
        data = rows(RESULTS)
        algorithms = list(dict.fromkeys(r[4] for r in data))
        fits = {}
        for line in run("scale_fit.py", RESULTS).stdout.splitlines():
            m = re.match(r"(\S+): CPU time ~ ratings\^(\S+), peak memory ~ ratings\^(\S+) ", line)
            fits[m.group(1)] = (m.group(2), m.group(3))
        for a in algorithms:
            legend = [t for t in texts if t.startswith(a + ": ")]
            self.assertEqual(legend, [f"{a}: CPU ∝ ratings{fits[a][0]}, "
                                      f"memory ∝ ratings{fits[a][1]}"])
        # One line per algorithm in each panel; on log axes a line's pixel steps are
        # proportional to the steps of the logarithms of the values it joins, with one scale
        # per axis and panel.
        lines = [[tuple(map(float, p.split(","))) for p in e.get("points").split()]
                 for e in root.iter(NS + "polyline")]
        self.assertEqual(len(lines), 2 * len(algorithms))
        for panel, column in ((lines[:len(algorithms)], 6), (lines[len(algorithms):], 7)):
            x_scales, y_scales = [], []
            for a, pts in zip(algorithms, panel):
                measured = sorted((int(r[3]), float(r[column])) for r in data
                                  if r[4] == a and not r[5].startswith("over "))
                self.assertEqual(len(pts), len(measured))
                for (x0, y0), (x1, y1), (r0, v0), (r1, v1) in zip(pts, pts[1:], measured,
                                                                  measured[1:]):
                    x_scales.append((x1 - x0) / math.log10(r1 / r0))
                    if abs(math.log10(v1 / v0)) >= 0.3:
                        y_scales.append((y1 - y0) / math.log10(v1 / v0))
            for scales in (x_scales, y_scales):
                # the points are written with one decimal: at most 0.1 px off over a step of
                # at least 0.3 decades
                self.assertLess(max(scales) - min(scales), 0.2 / 0.3 + 1e-9, scales)
            self.assertGreater(min(x_scales), 0)
            self.assertLess(max(y_scales), 0)  # larger values higher up

    def test_a_stopped_run_is_an_open_marker_with_a_note(self):
        src = os.path.join(self.dir.name, "r.tsv")
        with open(src, "w", encoding="utf-8") as f:
            f.write(HEADER + "1m\t6040\t3706\t1000209\tuser-user\t83.7\t10.8\t184\n"
                    "10m\t69878\t10677\t10000054\tuser-user\t2000\t900\t900\n"
                    "25m\t162541\t59047\t25000095\tuser-user\tover 1200s\tover 341\tover 808\n")
        p = run("plot_scale.py", src, self.out)
        self.assertEqual(p.returncode, 0, p.stderr)
        root = ET.parse(self.out).getroot()
        open_markers = [e for e in root.iter(NS + "circle") if e.get("fill") == "white"]
        self.assertEqual(len(open_markers), 2)  # CPU and memory
        texts = ["".join(t.itertext()) for t in root.iter(NS + "text")]
        self.assertIn("user-user at 25M ratings: stopped at 1,200 s of wall time, after 341 s of "
                      "CPU and 808 MB", texts)
        # not in the fit: two finished sizes give the slope of 10.8 s -> 900 s over 10x ratings
        slope = math.log10(900 / 10.8) / math.log10(10000054 / 1000209)
        self.assertTrue(any(t.startswith(f"user-user: CPU ∝ ratings{slope:.2f},") for t in texts),
                        texts)

    def test_bad_input_names_file_and_line_and_writes_nothing(self):
        good = "1m\t6040\t3706\t1000209\tfunk-svd\t22.1\t7.69\t87\n"
        cases = [
            (HEADER + good + "1m\t6040\t3706\n", ":3: expected 8 tab-separated fields"),
            (good + "10m\t69878\t10677\t10000054\tfunk-svd\t90\tfast\t900\n",
             ":2: expected cpu_s as a positive number, got 'fast'"),
            (good + good, ":2: expected one row per algorithm and size"),
            ("1m\t6040\t0\t1000209\tfunk-svd\t22.1\t7.69\t87\n",
             ":1: expected items as a positive integer, got '0'"),
            (good + "25m\t162541\t59047\t25000095\tfunk-svd\tover 900s\t300\tover 9\n",
             ":2: expected 'over X' for cpu_s and max_rss_mb of a run stopped"),
            (good + "25m\t162541\t59047\t25000095\tfunk-svd\tover 900s\tover x\tover 9\n",
             ":2: expected cpu_s in 'over X' as a positive number, got 'x'"),
            (good + "funk-svd: CPU time ~ ratings^1.10\n", ":2: expected 8 tab-separated"),
            (HEADER, ": expected at least one row"),
        ]
        src = os.path.join(self.dir.name, "bad.tsv")
        for text, expected in cases:
            with self.subTest(expected=expected):
                with open(src, "w", encoding="utf-8") as f:
                    f.write(text)
                for script, args in (("plot_scale.py", (src, self.out)), ("scale_fit.py", (src,))):
                    p = run(script, *args)
                    self.assertEqual(p.returncode, 2, script)
                    self.assertIn(src + expected, p.stderr, script)
                    self.assertEqual(p.stdout, "", script)
                    self.assertFalse(os.path.exists(self.out), script)


if __name__ == "__main__":
    unittest.main()
