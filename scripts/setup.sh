#!/usr/bin/env bash
# Install the Debian packages parcae needs, if any are missing (Debian 12, run as root or with
# sudo available). Safe to run repeatedly: does nothing when everything is present.
set -euo pipefail
pkgs=(build-essential cmake ninja-build pkg-config libgtest-dev libfmt-dev nlohmann-json3-dev
      libcli11-dev libmetis-dev python3 python3-pytest python3-numpy python3-matplotlib python3-yaml clang-format ccache)
# Cluster study: network namespaces, veth and tc shaping (parcae cluster).
pkgs+=(iproute2)
# clang with its sanitizer and libFuzzer runtimes: the keyword reader's fuzz target (preset fuzz).
pkgs+=(clang libclang-rt-14-dev)
# MPI: Open MPI (default build) and MPICH (preset release-mpich).
pkgs+=(libopenmpi-dev openmpi-bin libmpich-dev mpich)
# SimGrid SMPI (smpirun and its trace-replay program): `parcae whatif --engine smpi`. Debian 12
# has no separate `simgrid` binary package; libsimgrid-dev ships smpirun.
pkgs+=(libsimgrid-dev)
# Implicit solver (PETSc with MUMPS for the direct/out-of-core path, SLEPc for eigenvalues) and
# the CFD pressure solver (hypre's structured multigrid).
pkgs+=(petsc-dev slepc-dev libmumps-dev libhypre-dev)
# CFD case files (YAML).
pkgs+=(libyaml-cpp-dev)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
echo "setup: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
