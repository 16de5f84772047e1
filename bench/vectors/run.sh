#!/usr/bin/env bash
# bench/vectors/run.sh BUILD_DIR: analogy search over a generated 300,000 x 300 matrix, one by
# one (sgemv) and batched (sgemm), medians of 5 repeats; with OpenBLAS on one thread and on
# its default thread count. Also loads the shared GoogleNews and GloVe subsets.
set -euo pipefail
build="${1:?usage: bench/vectors/run.sh BUILD_DIR}"
here="$(cd "$(dirname "$0")" && pwd)"
shared="$here/../../../shared/data"
bin="$build/bench/vectors/vectors_bench"
echo "load average: $(cut -d" " -f1-3 /proc/loadavg) (other jobs on this machine slow memory-bound runs)"
echo "-- OpenBLAS default threads ($(nproc) cores)"
"$bin" --rows 300000 --dim 300 --queries 64 --repeats 5 --shared "$shared"
echo "-- OPENBLAS_NUM_THREADS=1"
OPENBLAS_NUM_THREADS=1 "$bin" --rows 300000 --dim 300 --queries 64 --repeats 5
