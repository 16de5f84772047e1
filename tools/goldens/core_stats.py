#!/usr/bin/python3
"""Regenerates tests/data/core/stats_goldens.json: reference values for src/core statistics,
computed with Debian's python3-scipy and python3-sklearn. Run with /usr/bin/python3:

    /usr/bin/python3 tools/goldens/core_stats.py > tests/data/core/stats_goldens.json

The inputs are generated here from a fixed numpy seed and stored with the outputs, so the C++
tests need no Python.
"""
import json
import sys

import numpy as np
import scipy
import sklearn
from scipy import stats
from sklearn.metrics import average_precision_score, roc_auc_score

rng = np.random.default_rng(20221201)
cases = {"welch": [], "student_t_cdf": [], "ranking": [], "pearson": [], "describe": [],
         "bootstrap": []}

for n_a, n_b, shift, scale in [(10, 12, 0.5, 1.0), (5, 40, 0.0, 3.0), (100, 100, 0.1, 0.5),
                              (3, 3, 2.0, 1.0), (30, 7, -1.0, 0.1)]:
    a = rng.normal(0, 1, n_a)
    b = rng.normal(shift, scale, n_b)
    r = stats.ttest_ind(a, b, equal_var=False)
    cases["welch"].append({"a": a.tolist(), "b": b.tolist(), "t": float(r.statistic),
                           "p": float(r.pvalue)})

for t, df in [(0.0, 5), (1.5, 3), (-2.2, 10.5), (4.0, 1), (-0.3, 200), (12.0, 7.3), (2.0, 0.7)]:
    cases["student_t_cdf"].append({"t": t, "df": df, "cdf": float(stats.t.cdf(t, df))})

for n, ties in [(20, False), (50, True), (200, True), (7, False)]:
    labels = rng.integers(0, 2, n)
    labels[0], labels[1] = 0, 1
    scores = rng.normal(labels * 0.7, 1.0)
    if ties:
        scores = np.round(scores, 1)
    cases["ranking"].append({"scores": scores.tolist(), "labels": labels.tolist(),
                             "ap": float(average_precision_score(labels, scores)),
                             "auc": float(roc_auc_score(labels, scores))})

for n in [5, 30, 300]:
    x = rng.normal(0, 1, n)
    y = 0.6 * x + rng.normal(0, 1, n)
    cases["pearson"].append({"x": x.tolist(), "y": y.tolist(),
                             "r": float(stats.pearsonr(x, y)[0])})
    cases["describe"].append({"x": x.tolist(), "mean": float(np.mean(x)),
                              "sd": float(np.std(x, ddof=1))})

# Percentile bootstrap of the mean: scipy's resampling stream differs from ours, so the test
# compares intervals within Monte Carlo error, not bit for bit.
for n, skew in [(60, False), (200, True)]:
    x = rng.exponential(1.0, n) if skew else rng.normal(2.0, 1.5, n)
    res = stats.bootstrap((x,), np.mean, n_resamples=20000, method="percentile",
                          confidence_level=0.95, random_state=1)
    cases["bootstrap"].append({"x": x.tolist(), "low": float(res.confidence_interval.low),
                               "high": float(res.confidence_interval.high),
                               "se": float(res.standard_error)})

# The rank-sum test on trial values like a stability campaign's: bounded, zero-inflated, tied.
# Small samples: the exact permutation distribution of the rank sum (every reassignment of the
# pooled values); large ones: Mann-Whitney's normal approximation with tie and continuity
# corrections.
def rank_sum(x, y, axis=-1):
    ranks = stats.rankdata(np.concatenate([x, y], axis=axis), axis=axis)
    return ranks[..., :x.shape[axis]].sum(axis=axis)


def zero_inflated(n, share, scale):
    v = np.where(rng.random(n) < share, np.round(rng.random(n) * scale, 2), 0.0)
    return v


cases["rank_sum"] = []
for n_a, n_b, share_a, share_b in [(6, 7, 0.5, 0.2), (10, 10, 0.4, 0.0), (4, 3, 1.0, 1.0),
                                   (9, 11, 0.9, 0.6)]:
    a, b = zero_inflated(n_a, share_a, 1.0), zero_inflated(n_b, share_b, 1.0)
    r = stats.permutation_test((a, b), rank_sum, permutation_type="independent",
                               n_resamples=np.inf, vectorized=True, alternative="two-sided")
    u = stats.mannwhitneyu(a, b, alternative="two-sided", method="asymptotic").statistic
    cases["rank_sum"].append({"a": a.tolist(), "b": b.tolist(), "exact": True,
                              "u": float(u), "p": float(r.pvalue)})
for n_a, n_b, share_a, share_b in [(30, 25, 0.5, 0.3), (100, 100, 0.1, 0.05), (60, 45, 0.8, 0.8)]:
    a, b = zero_inflated(n_a, share_a, 0.5), zero_inflated(n_b, share_b, 0.5)
    r = stats.mannwhitneyu(a, b, alternative="two-sided", method="asymptotic")
    cases["rank_sum"].append({"a": a.tolist(), "b": b.tolist(), "exact": False,
                              "u": float(r.statistic), "p": float(r.pvalue)})

# Percentile bootstrap of a difference of means, each sample resampled on its own.
cases["bootstrap_difference"] = []
for n_a, n_b in [(20, 20), (100, 60)]:
    a, b = zero_inflated(n_a, 0.4, 1.0), zero_inflated(n_b, 0.2, 1.0)
    res = stats.bootstrap((a, b), lambda x, y, axis=-1: np.mean(x, axis=axis) - np.mean(y, axis=axis),
                          n_resamples=20000, method="percentile", confidence_level=0.95,
                          random_state=1)
    cases["bootstrap_difference"].append({"a": a.tolist(), "b": b.tolist(),
                                          "low": float(res.confidence_interval.low),
                                          "high": float(res.confidence_interval.high),
                                          "se": float(res.standard_error)})

json.dump({"generator": "tools/goldens/core_stats.py", "scipy": scipy.__version__,
           "sklearn": sklearn.__version__, "cases": cases}, sys.stdout, indent=1)
sys.stdout.write("\n")
