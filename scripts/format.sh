#!/usr/bin/env bash
# The C++ house layout (.clang-format at the root), checked or applied with Debian's
# clang-format (installed by scripts/setup.sh --test).
#   scripts/format.sh         lists every tracked C++ file whose layout differs; exit 1 if any
#   scripts/format.sh --fix   rewrites those files in place
set -euo pipefail
cd "$(dirname "$0")/.."
fix=0
if [[ "${1:-}" == "--fix" ]]; then
  fix=1
elif (( $# > 0 )); then
  echo "usage: scripts/format.sh [--fix]" >&2
  exit 2
fi
if ! command -v clang-format > /dev/null; then
  echo "format: clang-format is missing (bash scripts/setup.sh --test installs it)" >&2
  exit 2
fi
bad=()
while IFS= read -r -d '' f; do
  if ! clang-format --style=file "$f" | cmp -s - "$f"; then bad+=("$f"); fi
done < <(git ls-files -z -- '*.cc' '*.h' '*.cpp')
if (( ${#bad[@]} == 0 )); then
  echo "format: every C++ file follows .clang-format" >&2
  exit 0
fi
if (( fix )); then
  clang-format --style=file -i "${bad[@]}"
  echo "format: rewrote ${#bad[@]} files" >&2
  exit 0
fi
printf '%s\n' "${bad[@]}"
echo "format: ${#bad[@]} files differ from .clang-format (scripts/format.sh --fix rewrites them)" >&2
exit 1
