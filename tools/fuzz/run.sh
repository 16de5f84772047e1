#!/usr/bin/env bash
# tools/fuzz/run.sh TARGET [SECONDS]: builds the libFuzzer target (safetensors | tokenizer)
# with clang++ -fsanitize=fuzzer,address,undefined into build/fuzz/ and runs it for SECONDS
# (default 180) on 1 job, starting from the seed corpus made of the committed test data.
# Needs clang and libclang-rt-14-dev (scripts/packages/bert.test).
set -euo pipefail
target=${1:?usage: run.sh safetensors|tokenizer [SECONDS]}
seconds=${2:-180}
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$root/build/fuzz
mkdir -p "$out/corpus-$target"
srcs=("$root/src/core/error.cc" "$root/src/core/line_reader.cc" "$root/src/core/check.cc"
      "$root/src/lm/safetensors_file.cc" "$root/src/lm/basic_tokenizer.cc"
      "$root/src/lm/bert_vocab.cc" "$root/src/lm/wordpiece_tokenizer.cc")
clang++ -std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  -I"$root/src" -DASSAY_FUZZ_DATA_DIR="\"$root/tests/data\"" \
  "$root/tools/fuzz/${target}_fuzzer.cc" "${srcs[@]}" -lutf8proc -o "$out/${target}_fuzzer"
seeds=$out/seeds-$target
mkdir -p "$seeds"
if [[ $target == safetensors ]]; then
  cp "$root"/tests/data/lm/bert/simcse/model.safetensors "$seeds/simcse" 2>/dev/null || true
  printf '\x20\x00\x00\x00\x00\x00\x00\x00{"w":{"dtype":"F16","shape":[2],"data_offsets":[0,4]}}abcd' > "$seeds/small"
else
  /usr/bin/python3 -c "
import json,sys
for i,c in enumerate(json.load(open('$root/tests/data/lm/bert/tokenizer_goldens.json'))['cases']):
    open('$seeds/case%d' % i,'w').write(c['text'])"
fi
"$out/${target}_fuzzer" -max_total_time="$seconds" -max_len=4096 -rss_limit_mb=2048 \
  -artifact_prefix="$out/" \
  -print_final_stats=1 "$out/corpus-$target" "$seeds"
