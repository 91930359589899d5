#!/usr/bin/env bash
# Regenerate docs/keywords.md from the keyword card tables (src/input/card_tables.cpp).
# Usage: scripts/gen_keyword_docs.sh [build-dir]   (default: build-io; configured if missing)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-"$root/build-io"}
if [[ ! -f "$build/build.ninja" ]]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
fi
ninja -C "$build" test_input
PARCAE_UPDATE_KEYWORD_DOCS=1 "$build/tests/test_input" --gtest_filter='KeywordDocs.*'
echo "wrote $root/docs/keywords.md"
