#!/usr/bin/python3
"""Golden facts for WordNetGraph from an independent reader: NLTK's WordNetCorpusReader
(Debian python3-nltk) over the same Debian wordnet-base files.

Writes tests/data/knowledge/wordnet_nltk_golden.jsonl: for each word, its noun synsets in
sense order with NLTK's name, lemma names, definition, hypernyms (incl. instance hypernyms)
and the antonyms of the lemma itself. Run with /usr/bin/python3 (Debian's NLTK):
    /usr/bin/python3 tools/goldens/knowledge_wordnet_nltk.py
Debian's wordnet-base lacks the `lexnames` file NLTK insists on, so the script reads the
database through a temporary directory of symlinks plus a generated lexnames file (the 45
standard lexicographer file names; only used by NLTK for Synset.lexname()).
"""
import json
import os
import sys
import tempfile
import warnings

warnings.filterwarnings("ignore")
from nltk.corpus.reader.wordnet import WordNetCorpusReader  # noqa: E402

WORDNET = "/usr/share/wordnet"
LEXNAMES = (
    "adj.all adj.pert adv.all noun.Tops noun.act noun.animal noun.artifact noun.attribute noun.body "
    "noun.cognition noun.communication noun.event noun.feeling noun.food noun.group noun.location "
    "noun.motive noun.object noun.person noun.phenomenon noun.plant noun.possession noun.process "
    "noun.quantity noun.relation noun.shape noun.state noun.substance noun.time verb.body verb.change "
    "verb.cognition verb.communication verb.competition verb.consumption verb.contact verb.creation "
    "verb.emotion verb.motion verb.perception verb.possession verb.social verb.stative verb.weather "
    "adj.ppl").split()
WORDS = (
    "actor actress boy girl brother sister dad mum daddy mummy man woman father mother grandfather "
    "grandmother husband wife king queen nephew niece policeman policewoman prince princess son "
    "daughter uncle aunt waiter waitress gal guy female male person dog bank table star bull lion "
    "chairman chairwoman doctor nurse teacher engineer host hostess widow widower bride groom "
    "monk nun hero heroine steward stewardess").split()


def main():
    out_path = os.path.join(os.path.dirname(__file__), "..", "..", "tests", "data", "knowledge",
                            "wordnet_nltk_golden.jsonl")
    with tempfile.TemporaryDirectory() as tmp:
        for name in os.listdir(WORDNET):
            if "." in name:
                os.symlink(os.path.join(WORDNET, name), os.path.join(tmp, name))
        pos = {"adj": 3, "adv": 4, "noun": 1, "verb": 2}
        with open(os.path.join(tmp, "lexnames"), "w") as f:
            for i, n in enumerate(LEXNAMES):
                f.write("%02d\t%s\t%d\n" % (i, n, pos[n.split(".")[0]]))
        wn = WordNetCorpusReader(tmp, None)
        with open(out_path, "w") as out:
            for w in WORDS:
                senses = []
                for s in wn.synsets(w, "n"):
                    antonyms = sorted({a.name().lower() for l in s.lemmas() if l.name().lower() == w
                                       for a in l.antonyms()})
                    senses.append({
                        "name": s.name(),
                        "lemmas": s.lemma_names(),
                        "definition": s.definition(),
                        "hypernyms": [h.name() for h in s.hypernyms() + s.instance_hypernyms()],
                        "antonyms": antonyms,
                    })
                out.write(json.dumps({"word": w, "senses": senses}, sort_keys=True) + "\n")
    print("wrote", os.path.normpath(out_path), file=sys.stderr)


if __name__ == "__main__":
    main()
