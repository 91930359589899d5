#!/usr/bin/env bash
# Install the peer codes the benchmarks compare against (not needed to build or test parcae):
# CalculiX (ccx, issue 13's implicit comparison) and OpenFOAM (icoFoam/interFoam and the tutorials
# bench/cfd_cavity.py starts from: openfoam-examples).
set -euo pipefail
pkgs=(calculix-ccx openfoam openfoam-examples)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
