#!/usr/bin/env bash
# The short fuzz run of `make test` (ctest -L fuzz): fuzz_smoke.sh FUZZER SEEDS DICT WORKDIR RUNS.
# A fixed number of inputs from a fixed seed, so it is repeatable; new inputs go to a scratch
# corpus in WORKDIR (emptied first), findings to WORKDIR/findings/. Fails on any finding.
set -euo pipefail
fuzzer=$1 seeds=$2 dict=$3 work=$4 runs=$5
rm -rf "$work"
mkdir -p "$work/corpus" "$work/findings"
"$fuzzer" -seed=1 -runs="$runs" -timeout=10 -max_len=16384 -rss_limit_mb=2048 -dict="$dict" \
  -print_final_stats=1 -artifact_prefix="$work/findings/" "$work/corpus" "$seeds"
