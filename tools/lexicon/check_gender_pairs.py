#!/usr/bin/python3
"""Check a gender-pair lexicon (data/lexicon/gender-pairs.tsv).

Usage (from the repository root, with Debian's Python, which has NLTK):

    /usr/bin/python3 tools/lexicon/check_gender_pairs.py data/lexicon/gender-pairs.tsv

The lexicon is UTF-8, tab-separated; blank lines and lines starting with '#' are ignored.
Every other line is a row `male<TAB>female<TAB>category<TAB>source`.

Structural checks (a failure makes the script exit 1):
  * exactly 4 tab-separated fields, none empty, no surrounding white space;
  * both words lower case, made only of letters, '_' (for a space), '-' and "'";
    male and female differ;
  * category is one of: kinship partner address nobility religious occupation age general
    fiction;
  * source is a comma-separated list (no spaces) of: debiaswe:equalize_pairs,
    debiaswe:definitional_pairs, mt-nlp:word_pairs, curated;
  * no row repeats an earlier (male, female) pair;
  * no word is used both as a male word and as a female word.

Multi-counterpart words (a word that appears in the same column of several rows with
different partners, e.g. dad/mom then dad/mum) are allowed: consumers take a word's
counterpart from the first row it appears in, so the earlier row is the preferred one. The
script only reports how many such words there are, and lists them.

WordNet check (a failure makes the script exit 1): for every word that WordNet 3.0 knows as a
noun (some noun synset has the word itself, with '_' for a space, among its lemmas), at least
one of those noun senses must be person.n.01 or have person.n.01 in its hypernym closure
(instance hypernyms are not followed). One narrow exception: WordNet files the titles Mr, Mrs,
Ms and Mister only as forms of address (title.n.06, "an identifying appellation signifying
status or function"), never as persons, so a word used in an `address` row may instead have a
noun sense under title.n.06; such words are counted and listed separately in the summary.
Words WordNet does not know as nouns are counted and listed, but are not failures.

WordNet comes from NLTK's own data when it is installed (nltk.download('wordnet')), and
otherwise from Debian's wordnet-base files in /usr/share/wordnet (read through a temporary
directory that adds the `lexnames` file NLTK requires and Debian does not ship).

Exit status: 0 when every row passes, 1 when any check fails, 2 on a usage or set-up error.
"""
import os
import re
import sys
import tempfile
import warnings
from collections import Counter, OrderedDict

CATEGORIES = ("kinship", "partner", "address", "nobility", "religious", "occupation", "age",
              "general", "fiction")
SOURCES = ("debiaswe:equalize_pairs", "debiaswe:definitional_pairs", "mt-nlp:word_pairs",
           "curated")
WORD_RE = re.compile(r"^[^\W\d_](?:[^\W\d]|['-])*$")
DEBIAN_WORDNET = "/usr/share/wordnet"

# The 45 lexicographer file names of WordNet 3.0, in file-number order. NLTK's reader needs
# them only to name a synset's lexicographer file; Debian's wordnet-base lacks the file.
LEXNAMES = [
    "adj.all", "adj.pert", "adv.all", "noun.Tops", "noun.act", "noun.animal", "noun.artifact",
    "noun.attribute", "noun.body", "noun.cognition", "noun.communication", "noun.event",
    "noun.feeling", "noun.food", "noun.group", "noun.location", "noun.motive", "noun.object",
    "noun.person", "noun.phenomenon", "noun.plant", "noun.possession", "noun.process",
    "noun.quantity", "noun.relation", "noun.shape", "noun.state", "noun.substance",
    "noun.time", "verb.body", "verb.change", "verb.cognition", "verb.communication",
    "verb.competition", "verb.consumption", "verb.contact", "verb.creation", "verb.emotion",
    "verb.motion", "verb.perception", "verb.possession", "verb.social", "verb.stative",
    "verb.weather", "adj.ppl",
]


def load_wordnet(tmp_holder):
    """Return (reader, description). tmp_holder keeps a temporary directory alive."""
    warnings.filterwarnings("ignore")
    try:
        from nltk.corpus import wordnet as wn
    except ImportError as e:
        raise SystemExit(f"error: NLTK is not importable ({e}); run with /usr/bin/python3")
    try:
        wn.ensure_loaded()
        return wn, "NLTK wordnet corpus"
    except LookupError:
        pass
    if not os.path.isfile(os.path.join(DEBIAN_WORDNET, "data.noun")):
        raise SystemExit("error: no WordNet: neither NLTK's wordnet data nor "
                         f"{DEBIAN_WORDNET} (Debian package wordnet-base) is installed")
    from nltk.corpus.reader.wordnet import WordNetCorpusReader
    tmp = tempfile.TemporaryDirectory(prefix="wordnet-")
    tmp_holder.append(tmp)
    for name in os.listdir(DEBIAN_WORDNET):
        os.symlink(os.path.join(DEBIAN_WORDNET, name), os.path.join(tmp.name, name))
    if not os.path.exists(os.path.join(tmp.name, "lexnames")):
        with open(os.path.join(tmp.name, "lexnames"), "w", encoding="ascii") as f:
            for number, name in enumerate(LEXNAMES):
                kind = {"adj": 3, "adv": 4, "noun": 1, "verb": 2}[name.split(".")[0]]
                f.write(f"{number:02d}\t{name}\t{kind}\n")
    return WordNetCorpusReader(tmp.name, None), f"Debian wordnet-base ({DEBIAN_WORDNET})"


def noun_senses(wn, word):
    """Noun synsets that have `word` itself (not an inflection of it) among their lemmas."""
    key = word.lower()
    return [s for s in wn.synsets(word, pos="n")
            if any(lemma.name().lower() == key for lemma in s.lemmas())]


def is_person_sense(synset, person):
    if synset == person:
        return True
    return person in synset.closure(lambda s: s.hypernyms())


def read_rows(path):
    """Yield (line_number, raw_line) for every data line."""
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n").rstrip("\r")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            yield number, line


def structural_problems(fields):
    problems = []
    if len(fields) != 4:
        return [f"expected 4 tab-separated fields, found {len(fields)}"]
    male, female, category, source = fields
    for name, value in zip(("male", "female", "category", "source"), fields):
        if not value:
            problems.append(f"empty {name} field")
        elif value != value.strip():
            problems.append(f"{name} field has surrounding white space")
    for name, word in (("male", male), ("female", female)):
        if word and word != word.lower():
            problems.append(f"{name} word {word!r} is not lower case")
        if word and not WORD_RE.match(word):
            problems.append(f"{name} word {word!r} has characters other than letters, "
                            "'_', '-' and \"'\"")
    if male and male == female:
        problems.append("male and female words are the same")
    if category and category not in CATEGORIES:
        problems.append(f"unknown category {category!r}")
    if source:
        for part in source.split(","):
            if part not in SOURCES:
                problems.append(f"unknown source {part!r}")
    return problems


def main(argv):
    if len(argv) != 2:
        print(f"usage: /usr/bin/python3 {argv[0]} LEXICON.tsv\n"
              "  e.g. /usr/bin/python3 tools/lexicon/check_gender_pairs.py "
              "data/lexicon/gender-pairs.tsv", file=sys.stderr)
        return 2
    path = argv[1]
    try:
        rows = list(read_rows(path))
    except (OSError, UnicodeDecodeError) as e:
        print(f"error: cannot read {path}: {e}", file=sys.stderr)
        return 2

    failures = []  # (line, message)
    categories = Counter()
    sources = Counter()
    seen_pairs = {}
    first_partner = {"male": OrderedDict(), "female": OrderedDict()}
    multi = {"male": OrderedDict(), "female": OrderedDict()}
    word_lines = OrderedDict()  # word -> first line number
    word_categories = {}  # word -> set of categories of the rows it is in
    good_rows = []

    for number, line in rows:
        fields = line.split("\t")
        problems = structural_problems(fields)
        for p in problems:
            failures.append((number, p))
        if len(fields) != 4:
            continue
        male, female, category, source = fields
        categories[category] += 1
        for part in source.split(","):
            sources[part] += 1
        if (male, female) in seen_pairs:
            failures.append((number, f"pair {male}/{female} repeats line "
                                     f"{seen_pairs[(male, female)]}"))
        else:
            seen_pairs[(male, female)] = number
        for column, word, partner in (("male", male, female), ("female", female, male)):
            if not word:
                continue
            word_lines.setdefault(word, number)
            word_categories.setdefault(word, set()).add(category)
            earlier = first_partner[column].get(word)
            if earlier is None:
                first_partner[column][word] = (partner, number)
            elif earlier[0] != partner:
                multi[column].setdefault(word, [earlier]).append((partner, number))
        if not problems:
            good_rows.append((number, male, female))

    for word in first_partner["male"]:
        if word in first_partner["female"]:
            failures.append((first_partner["female"][word][1],
                             f"word {word!r} is male on line {first_partner['male'][word][1]}"
                             f" and female on line {first_partner['female'][word][1]}"))

    tmp_holder = []
    wn, wn_source = load_wordnet(tmp_holder)
    person = wn.synset("person.n.01")
    title = wn.synset("title.n.06")
    known, passing, titles, unknown, no_person = [], [], [], [], []
    for word, number in word_lines.items():
        if not WORD_RE.match(word):
            continue
        senses = noun_senses(wn, word)
        if not senses:
            unknown.append(word)
            continue
        known.append(word)
        if any(is_person_sense(s, person) for s in senses):
            passing.append(word)
        elif ("address" in word_categories.get(word, ())
              and any(is_person_sense(s, title) for s in senses)):
            titles.append(word)
        else:
            no_person.append(word)
            names = ", ".join(s.name() for s in senses)
            failures.append((number, f"WordNet knows {word!r} as a noun ({names}) but no "
                                     "sense is a person.n.01"))

    n_multi = len(multi["male"]) + len(multi["female"])
    print(f"lexicon: {path}")
    print(f"rows: {len(rows)} ({len(good_rows)} structurally valid)")
    print("categories: " + ", ".join(f"{c} {categories[c]}" for c in CATEGORIES
                                       if categories[c]) +
          "".join(f", {c}(unknown) {n}" for c, n in categories.items()
                  if c not in CATEGORIES))
    print("sources: " + ", ".join(f"{s} {n}" for s, n in sources.most_common()))
    print(f"distinct words: {len(word_lines)} "
          f"(male {len(first_partner['male'])}, female {len(first_partner['female'])})")
    print(f"multi-counterpart words (first row wins): {n_multi} "
          f"(male {len(multi['male'])}, female {len(multi['female'])})")
    for column in ("male", "female"):
        for word, partners in multi[column].items():
            chain = ", ".join(f"{p} (line {n})" for p, n in partners)
            print(f"  {column} {word}: {chain}")
    print(f"WordNet ({wn_source}): knows {len(known)} of {len(word_lines)} words as nouns; "
          f"{len(passing)} have a person sense, {len(titles)} are address titles, "
          f"{len(no_person)} fail")
    if titles:
        print(f"address titles accepted via title.n.06 ({len(titles)}): {' '.join(titles)}")
    if unknown:
        print(f"not in WordNet as nouns ({len(unknown)}): {' '.join(unknown)}")
    if failures:
        print(f"FAILURES ({len(failures)}):")
        for number, message in sorted(failures):
            print(f"  line {number}: {message}")
        print("result: FAIL")
        return 1
    print("result: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
