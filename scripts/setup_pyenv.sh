#!/usr/bin/env bash
# Python environment for the d3plot reader checks: a venv at build/pyenv with lasso-python
# (lasso.dyna.D3plot) and VTK (vtkLSDynaReader), the two independent d3plot readers the tests
# compare parcae's d3plot against. Idempotent: does nothing when the stamp file says the
# environment is complete. Usage: scripts/setup_pyenv.sh [VENV_DIR]  (default build/pyenv)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${1:-$root/build/pyenv}"
stamp="$venv/.parcae_pyenv_stamp"
# Bump when the package set changes so existing environments get the new packages.
stamp_version="2"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$stamp_version" ]; then
  echo "setup_pyenv: $venv is set up"
  exit 0
fi
t0=$(date +%s)
py=/usr/bin/python3
# Debian splits venv/ensurepip into python3-venv (python3.11-venv): install it when missing.
if ! "$py" -c "import venv, ensurepip" >/dev/null 2>&1; then
  echo "setup_pyenv: installing python3-venv"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends python3-venv >/dev/null
fi
if [ ! -x "$venv/bin/python" ]; then
  "$py" -m venv "$venv"
fi
pip=("$venv/bin/python" -m pip --disable-pip-version-check -q)
# lasso-python pins a heavy stack (scipy, plotly, scikit-learn, matplotlib, ...) that only its
# other modules use. Importing lasso.dyna (D3plot) needs numpy and rich, plus h5py and pandas
# because lasso/dyna/__init__.py also imports the binout reader; install those and lasso itself
# without its dependencies.
# The reader versions the tests were written against (their behaviour is what they check).
"${pip[@]}" install numpy rich h5py pandas vtk==9.7.2
"${pip[@]}" install --no-deps lasso-python==2.0.4
# Check both readers import.
"$venv/bin/python" -c "from lasso.dyna import D3plot; import vtk; vtk.vtkLSDynaReader"
echo "$stamp_version" >"$stamp"
echo "setup_pyenv: $venv ready in $(( $(date +%s) - t0 )) s"
