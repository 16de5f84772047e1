#!/usr/bin/env bash
# bench/fairness/certificate.sh BUILD_DIR: the neutral layer's certificate where clients see it.
# For each upstream (the built-in LR trained on SST-2's training split; the scikit-learn
# pipeline of tests/data/models/sklearn_server.py trained on the same data, served over HTTP)
# and each text (the first 1,000 positive and 1,000 negative rt-polarity sentences; the first
# 2,000 example sentences of WordNet's verbs, a text of another kind), gender:
#  1. `fair mitigate --epsilon 0.1,1,5` reports the violations the layer leaves, the largest
#     realised ε over the pairs of one class and the pairs outside one class;
#  2. for each ε, `fair serve` with the same options in front of the same upstream is audited
#     by `fair test --model http:PROXY` (the violations a client sees), and every text and
#     perturbation is asked of the proxy (`model predict`), so that the realised ε of every
#     pair (input, perturbation) is computed from the answers the clients get.
# Prints one row per (upstream, text, ε): violations before, left by Theorem 1 within each
# input's own set (what a layer smoothing each text over its own perturbations reports),
# reported by mitigate, found by the audit, the certified ε, the largest realised one and the
# pairs outside one class. Needs ../shared/data (rt-polarity,
# SST-2), wordnet-base and /usr/bin/python3 with sklearn.
set -euo pipefail
build="$(cd "${1:?usage: bench/fairness/certificate.sh BUILD_DIR}" && pwd)"
here="$(cd "$(dirname "$0")" && pwd)"
root="$here/../.."
data="$root/../shared/data"
assay="$build/apps/assay/assay"
tmp="$(mktemp -d)"
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$tmp"; }
trap cleanup EXIT

# rt-polarity is Latin-1: read as UTF-8 by every command below.
{
  head -n 1000 "$data/rt-polarity-v1.0/rt-polarity.pos"
  head -n 1000 "$data/rt-polarity-v1.0/rt-polarity.neg"
} | iconv -f latin1 -t utf-8 > "$tmp/rt.txt"
# WordNet's example sentences of verbs ("She choked with emotion when she spoke about her
# deceased husband"): the quoted strings of data.verb after its licence header.
grep -v '^  ' /usr/share/wordnet/data.verb | grep -o '"[^"]*"' | tr -d '"' |
  awk 'length($0) > 12 && n < 2000 { print; n++ }' > "$tmp/wordnet.txt"
# SST-2's training split with the header the LR and the pipeline read (text, label).
{
  printf 'text\tlabel\n'
  tail -n +2 "$data/sst2-glue/train.tsv"
} > "$tmp/sst2.tsv"
"$assay" model train-lr --quiet --train "$tmp/sst2.tsv" --out "$tmp/sst2.lr"
/usr/bin/python3 "$root/tests/data/models/sklearn_server.py" --train "$tmp/sst2.tsv" --http 0 \
  > "$tmp/sklearn.port" 2> "$tmp/sklearn.err" &
pids+=($!)
for _ in $(seq 600); do grep -q '^port ' "$tmp/sklearn.port" 2>/dev/null && break; sleep 0.1; done
sklearn_port=$(awk '/^port /{print $2}' "$tmp/sklearn.port")
sklearn="http://127.0.0.1:$sklearn_port/predict --labels 0,1 --scores-pointer /scores"

# start_serve UPSTREAM EPSILON: `fair serve` on a free port; sets $port and $serve_pid.
start_serve() {
  "$assay" fair serve --quiet --upstream $1 --epsilon "$2" --listen 127.0.0.1:0 \
    > "$tmp/serve.out" 2> "$tmp/serve.err" &
  serve_pid=$!
  pids+=("$serve_pid")
  for _ in $(seq 1200); do grep -q '^listening on' "$tmp/serve.out" 2>/dev/null && break; sleep 0.1; done
  port=$(sed -n 's|^listening on http://127.0.0.1:\([0-9]*\).*|\1|p' "$tmp/serve.out")
}

# The pairs a client can form: each input and each of its perturbations (fair perturb), as
# texts to ask and pairs of line numbers.
pairs_of() {
  "$assay" fair perturb --quiet --no-dropped --input "$1" > "$tmp/perturbed.jsonl"
  /usr/bin/python3 - "$tmp/perturbed.jsonl" "$tmp/asked.txt" "$tmp/pairs.txt" <<'EOF'
import json, sys
texts, index, pairs = [], {}, []
def at(t):
    if t not in index:
        index[t] = len(texts)
        texts.append(t)
    return index[t]
for line in open(sys.argv[1], encoding="utf-8"):
    j = json.loads(line)
    x = at(j["text"])
    for p in j["perturbations"]:
        pairs.append((x, at(p["text"])))
open(sys.argv[2], "w", encoding="utf-8").write("".join(t + "\n" for t in texts))
open(sys.argv[3], "w").write("".join(f"{a} {b}\n" for a, b in pairs))
EOF
}

# The largest ln(f(x)[c] / f(x')[c]) over the pairs, from the proxy's answers.
realised() {
  /usr/bin/python3 - "$1" "$tmp/pairs.txt" <<'EOF'
import json, math, sys
scores = [json.loads(l)["scores"] for l in open(sys.argv[1], encoding="utf-8")]
worst = 0.0
for line in open(sys.argv[2]):
    a, b = map(int, line.split())
    for p, q in zip(scores[a], scores[b]):
        hi, lo = max(p, q), min(p, q)
        if hi > 0:
            worst = max(worst, math.inf if lo == 0 else math.log(hi / lo))
print(f"{worst:.4f}")
EOF
}

printf '%-8s %-8s %5s %7s %9s %8s %8s %10s %9s %8s\n' upstream text eps before own-set \
  mitigate audited certified realised outside
for up in lr sklearn; do
  if [[ $up == lr ]]; then model="lr:$tmp/sst2.lr"; else model="http:$sklearn"; fi
  for text in rt wordnet; do
    input="$tmp/$text.txt"
    "$assay" fair mitigate --quiet --model $model --input "$input" --epsilon 0.1,1,5 \
      --out "$tmp/m-$up-$text"
    pairs_of "$input"
    for eps in 0.1 1 5; do
      start_serve "$model" "$eps"
      proxy="http://127.0.0.1:$port/predict --labels 0,1 --scores-pointer /scores"
      status=0
      "$assay" fair test --quiet --model $proxy --input "$input" \
        --out "$tmp/t-$up-$text-$eps" || status=$?
      [[ $status -le 1 ]] || exit "$status"
      "$assay" model predict --model $proxy --input "$tmp/asked.txt" --out "$tmp/answers.jsonl" \
        2> /dev/null
      kill "$serve_pid"; wait "$serve_pid" 2>/dev/null || true
      /usr/bin/python3 - "$tmp/m-$up-$text/mitigation.json" "$tmp/t-$up-$text-$eps/summary.json" \
        "$eps" "$up" "$text" "$(realised "$tmp/answers.jsonl")" <<'EOF'
import json, sys
m = json.load(open(sys.argv[1]))
t = json.load(open(sys.argv[2]))
eps = float(sys.argv[3])
row = next(r for r in m["epsilons"] if r["epsilon"] == eps)
print(f'{sys.argv[4]:<8} {sys.argv[5]:<8} {eps:5g} {m["violations_before"]:7d} '
      f'{row["input_set"]["violations"]:9d} {row["violations"]:8d} {t["violations"]:8d} '
      f'{eps:10g} {sys.argv[6]:>9} {row["pairs_outside_class"]:8d}')
EOF
    done
  done
done
