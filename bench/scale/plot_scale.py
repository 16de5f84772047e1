#!/usr/bin/python3
"""Log-log plot of the recommenders' scale study as an SVG (standard library only).
  plot_scale.py RESULTS.tsv OUT.svg
RESULTS.tsv holds the rows of bench/scale/recsys_scale.sh (size users items ratings algorithm
wall_s cpu_s max_rss_mb). Left panel: CPU seconds of one run against the number of ratings;
right panel: the process's peak resident memory; one line and marker shape per algorithm, its
fitted exponent (over the finished runs) in the legend. A run stopped at the time limit is an
open marker at what it had used when stopped, with an arrow up: its run needs more.
Bad input: 'FILE:LINE: what was expected' on stderr, exit 2, and OUT is not written."""
import math
import os
import sys
import tempfile
from xml.sax.saxutils import escape

from scale_fit import InputError, exponents, read_rows

COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2",
           "#17becf"]
SHAPES = ["circle", "square", "triangle", "diamond"]
PANEL_W, PANEL_H = 400, 330          # plotting area of one panel
LEFT, TOP, GAP, RIGHT = 80, 60, 110, 30
WIDTH = LEFT + PANEL_W + GAP + PANEL_W + RIGHT


def fmt_number(v):
    """1e5 -> 100K, 2.5e7 -> 25M, 0.1 -> 0.1, 1000 -> 1,000."""
    for div, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "K")):
        if v >= div:
            return f"{v / div:.3g}{suffix}"
    return f"{v:g}"


def fmt_plain(v):
    return f"{v:,.0f}" if v >= 1 else f"{v:g}"


class LogAxis:
    """Maps [lo, hi] (positive) onto [p0, p1] pixels on a log scale, with a margin of a
    quarter of a decade each side."""

    def __init__(self, lo, hi, p0, p1, extra_top=0.0):
        self.a, self.b = math.log10(lo) - 0.25, math.log10(hi) + 0.25 + extra_top
        self.p0, self.p1 = p0, p1

    def __call__(self, v):
        return self.p0 + (math.log10(v) - self.a) / (self.b - self.a) * (self.p1 - self.p0)

    def decades(self):
        return [10.0 ** k for k in range(math.ceil(self.a), math.floor(self.b) + 1)]

    def minors(self):
        out = []
        for k in range(math.floor(self.a), math.ceil(self.b) + 1):
            for m in range(2, 10):
                v = m * 10.0 ** k
                if self.a <= math.log10(v) <= self.b:
                    out.append(v)
        return out


def superscript(text, after=""):
    """TEXT raised, then AFTER back on the baseline (SVG text has no other superscript)."""
    return (f'<tspan dy="-5" font-size="9">{escape(text)}</tspan>'
            f'<tspan dy="5">{escape(after)}</tspan>')


def marker(shape, x, y, colour, filled):
    fill = colour if filled else "white"
    common = f'fill="{fill}" stroke="{colour}" stroke-width="1.5"'
    if shape == "circle":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4.5" {common}/>'
    if shape == "square":
        return f'<rect x="{x - 4:.1f}" y="{y - 4:.1f}" width="8" height="8" {common}/>'
    if shape == "triangle":
        return (f'<polygon points="{x:.1f},{y - 5.5:.1f} {x - 5:.1f},{y + 4:.1f} '
                f'{x + 5:.1f},{y + 4:.1f}" {common}/>')
    return (f'<polygon points="{x:.1f},{y - 5.5:.1f} {x + 5:.1f},{y:.1f} {x:.1f},{y + 5.5:.1f} '
            f'{x - 5:.1f},{y:.1f}" {common}/>')


def panel(out, x0, title, ylabel, series, stopped, xaxis_range, yfmt, marks=()):
    """series and stopped (runs stopped at the time limit): {algorithm: [(ratings, value)]};
    marks: (value, label) drawn as dashed horizontal lines where they fall in the panel."""
    values = [v for pts in series.values() for _, v in pts] + \
             [v for pts in stopped.values() for _, v in pts]
    stopped_any = any(stopped.values())
    x = LogAxis(*xaxis_range, x0, x0 + PANEL_W)
    # room above a stopped run's marker for its arrow
    y = LogAxis(min(values), max(values), TOP + PANEL_H, TOP, 0.5 if stopped_any else 0.0)
    out.append(f'<text x="{x0 + PANEL_W / 2}" y="{TOP - 14}" text-anchor="middle" '
               f'font-size="14" font-weight="bold">{escape(title)}</text>')
    out.append(f'<rect x="{x0}" y="{TOP}" width="{PANEL_W}" height="{PANEL_H}" fill="none" '
               f'stroke="#444"/>')
    def vline(px, style):  # a vertical line across the panel
        out.append(f'<line x1="{px:.1f}" y1="{TOP}" x2="{px:.1f}" y2="{TOP + PANEL_H}" {style}/>')

    def hline(py, style):  # a horizontal line across the panel
        out.append(f'<line x1="{x0}" y1="{py:.1f}" x2="{x0 + PANEL_W}" y2="{py:.1f}" {style}/>')

    for v in x.minors():
        vline(x(v), 'stroke="#eee"')
    for v in y.minors():
        hline(y(v), 'stroke="#eee"')
    for v in x.decades():
        vline(x(v), 'stroke="#ccc"')
        out.append(f'<text x="{x(v):.1f}" y="{TOP + PANEL_H + 18}" text-anchor="middle" '
                   f'font-size="12">{fmt_number(v)}</text>')
    for v in y.decades():
        hline(y(v), 'stroke="#ccc"')
        out.append(f'<text x="{x0 - 6}" y="{y(v) + 4:.1f}" text-anchor="end" '
                   f'font-size="12">{yfmt(v)}</text>')
    out.append(f'<text x="{x0 + PANEL_W / 2}" y="{TOP + PANEL_H + 40}" text-anchor="middle" '
               f'font-size="12">ratings (log scale)</text>')
    for v, label in marks:
        if y.a <= math.log10(v) <= y.b:
            hline(y(v), 'stroke="#888" stroke-dasharray="6 4"')
            out.append(f'<text x="{x0 + 6}" y="{y(v) - 5:.1f}" font-size="11" '
                       f'fill="#555">{escape(label)}</text>')
    cy = TOP + PANEL_H / 2
    out.append(f'<text x="{x0 - 52}" y="{cy}" text-anchor="middle" font-size="12" '
               f'transform="rotate(-90 {x0 - 52} {cy})">{escape(ylabel)}</text>')
    for k, (a, pts) in enumerate(series.items()):
        colour, shape = COLOURS[k % len(COLOURS)], SHAPES[k % len(SHAPES)]
        pts = sorted(pts)
        if len(pts) >= 2:
            path = " ".join(f"{x(r):.1f},{y(v):.1f}" for r, v in pts)
            out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" '
                       f'stroke-width="1.8"/>')
        for r, v in pts:
            out.append(marker(shape, x(r), y(v), colour, True))
        for r, v in stopped.get(a, []):
            px, py = x(r), y(v)
            out.append(f'<line x1="{px:.1f}" y1="{py - 6:.1f}" x2="{px:.1f}" y2="{py - 26:.1f}" '
                       f'stroke="{colour}" stroke-width="1.5"/>')
            out.append(f'<polygon points="{px:.1f},{py - 32:.1f} {px - 4:.1f},{py - 24:.1f} '
                       f'{px + 4:.1f},{py - 24:.1f}" fill="{colour}"/>')
            out.append(marker(shape, px, py, colour, False))


def svg(rows):
    algorithms = list(dict.fromkeys(r.algorithm for r in rows))
    fits = exponents(rows)
    ratings = [r.ratings for r in rows]
    x_range = (min(ratings), max(ratings))
    def points(field, stopped):
        return {a: [(r.ratings, getattr(r, field)) for r in rows
                    if r.algorithm == a and r.stopped == stopped] for a in algorithms}
    out = [f'<text x="{WIDTH / 2}" y="24" text-anchor="middle" font-size="16" '
           f'font-weight="bold">Recommenders: one run (train + top-10 of every user, one '
           f'thread) against the data</text>']
    panel(out, LEFT, "CPU seconds per run", "CPU seconds", points("cpu_s", False),
          points("cpu_s", True), x_range, fmt_plain, [(3600, "1 hour")])
    panel(out, LEFT + PANEL_W + GAP, "Peak resident memory", "peak RSS, MB",
          points("max_rss_mb", False), points("max_rss_mb", True), x_range, fmt_plain)
    ly = TOP + PANEL_H + 66
    for k, a in enumerate(algorithms):
        colour, shape = COLOURS[k % len(COLOURS)], SHAPES[k % len(SHAPES)]
        lx = LEFT + (k % 2) * (PANEL_W + GAP)
        row_y = ly + (k // 2) * 22
        out.append(f'<line x1="{lx}" y1="{row_y}" x2="{lx + 30}" y2="{row_y}" '
                   f'stroke="{colour}" stroke-width="1.8"/>')
        out.append(marker(shape, lx + 15, row_y, colour, True))
        fit = fits.get(a)
        label = escape(a)
        if fit is not None:
            label += (f": CPU ∝ ratings{superscript(f'{fit[0]:.2f}', ', memory ∝ ratings')}"
                      f"{superscript(f'{fit[1]:.2f}')}")
        out.append(f'<text x="{lx + 38}" y="{row_y + 4}" font-size="12">{label}</text>')
    note_y = ly + ((len(algorithms) + 1) // 2) * 22 + 8
    stopped = [r for r in rows if r.stopped]
    if stopped:
        out.append(f'<text x="{LEFT}" y="{note_y}" font-size="12">Open marker with an arrow up: '
                   f'a run stopped at its wall-time limit, drawn at what it had used by then '
                   f'(its run needs more):</text>')
        note_y += 18
    for r in stopped:
        out.append(f'<text x="{LEFT + 16}" y="{note_y}" font-size="12">{escape(r.algorithm)} at '
                   f'{fmt_number(r.ratings)} ratings: stopped at {fmt_plain(r.wall_s)} s of wall '
                   f'time, after {fmt_plain(r.cpu_s)} s of CPU and {fmt_plain(r.max_rss_mb)} MB'
                   f'</text>')
        note_y += 18
    out.append(f'<text x="{LEFT}" y="{note_y}" font-size="12" fill="#555">Exponents: '
               f'least-squares slopes on log-log axes over the finished runs.</text>')
    height = note_y + 16
    head = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
            f'viewBox="0 0 {WIDTH} {height}" font-family="DejaVu Sans, Arial, sans-serif">',
            f'<rect width="{WIDTH}" height="{height}" fill="white"/>']
    return "\n".join(head + out + ["</svg>"]) + "\n"


def main(argv):
    if len(argv) != 3 or any(a.startswith("-") for a in argv[1:]):
        print("usage: plot_scale.py RESULTS.tsv OUT.svg", file=sys.stderr)
        return 2
    src, dst = argv[1], argv[2]
    try:
        text = svg(read_rows(src))
    except InputError as e:
        msg = str(e)
        print(f"plot_scale.py: {msg if msg.startswith(src) else src + ': ' + msg}",
              file=sys.stderr)
        return 2
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(dst)), suffix=".svg")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes it private
        os.replace(tmp, dst)
    except OSError as e:
        if tmp and os.path.exists(tmp):
            os.unlink(tmp)
        print(f"plot_scale.py: cannot write {dst}: {e.strerror or e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
