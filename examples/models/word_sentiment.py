"""The model the adapter examples serve: a small word-list sentiment scorer, standard library
only. Replace predict() with your own model and keep its contract: a list of texts in, one
list of scores per text out, each in LABELS order.
"""
import math
import re

LABELS = ["neg", "pos"]

POSITIVE = {
    "good", "great", "wonderful", "fine", "brilliant", "moving", "funny", "gorgeous", "witty",
    "best", "love", "loved", "beautiful", "charming", "delightful", "smart", "fresh", "fun",
    "enjoyable", "touching", "excellent", "superb", "masterpiece", "warm", "clever",
}
NEGATIVE = {
    "bad", "dull", "awful", "boring", "worst", "mess", "stupid", "tedious", "flat", "weak",
    "poor", "bland", "hate", "hated", "ugly", "lame", "silly", "tired", "waste", "predictable",
    "painful", "annoying", "pointless", "terrible", "mediocre",
}
WORD = re.compile(r"[a-z']+")


def predict(texts):
    """Scores [p(neg), p(pos)] for each text: a logistic function of the positive words minus
    the negative ones."""
    out = []
    for text in texts:
        words = WORD.findall(text.lower())
        margin = sum(w in POSITIVE for w in words) - sum(w in NEGATIVE for w in words)
        pos = 1.0 / (1.0 + math.exp(-margin))
        out.append([1.0 - pos, pos])
    return out
