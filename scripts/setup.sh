#!/usr/bin/env bash
# Installs every Debian package assay needs. Non-interactive and idempotent: when everything is
# already installed it changes nothing and does not touch the network.
#   scripts/setup.sh          build and run
#   scripts/setup.sh --test   also what the test suite needs
set -euo pipefail

build_packages=(
  build-essential cmake ninja-build pkg-config git
  libcli11-dev nlohmann-json3-dev libsqlite3-dev zlib1g-dev
  libopenblas-dev libutf8proc-dev
)
test_packages=(
  libgtest-dev libgmock-dev
)

packages=("${build_packages[@]}")
if [[ "${1:-}" == "--test" ]]; then
  packages+=("${test_packages[@]}")
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if (( ${#missing[@]} == 0 )); then
  echo "setup: all ${#packages[@]} packages already installed" >&2
  exit 0
fi

sudo=""
if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
echo "setup: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
