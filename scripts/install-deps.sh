#!/usr/bin/env bash
# Installs what Ladder needs from Debian 12 packages, and nothing else. Idempotent: packages already
# present are left alone, and apt is not touched at all when nothing is missing.
#   usage (as root):  scripts/install-deps.sh [--tests] [--cross arm64] [--list]
#     --tests        also what only the tests need (scripts/test passes it; scripts/main does not)
#     --cross arm64  also the aarch64 cross toolchain and the :arm64 libraries (scripts/build-aarch64)
#     --list         print the packages it would see to, one a line, and install nothing (any user)
#   LADDER_DRY_RUN=1: print what it would install, and install nothing (any user)
set -euo pipefail
source "$(dirname "$0")/lib/dry-run.sh"

with_tests=0
cross=""
list_only=0
while [ $# -gt 0 ]; do
  case "$1" in
    --tests) with_tests=1 ;;
    --list) list_only=1 ;;
    --cross)
      [ $# -ge 2 ] || { echo "install-deps: --cross needs an architecture; accepted: arm64" >&2; exit 2; }
      [ "$2" = arm64 ] || { echo "install-deps: --cross '$2' is not supported; accepted: arm64" >&2; exit 2; }
      cross=$2
      shift ;;
    *) echo "install-deps: unknown option '$1'; accepted: --tests, --cross arm64, --list" >&2; exit 2 ;;
  esac
  shift
done

packages=(
  g++ cmake make ninja-build pkg-config git ca-certificates  # toolchain
  libbenchmark-dev                                          # Google Benchmark 1.7.1 (the harness)
  libbenchmark-tools python3-scipy                          # its compare.py, which reads results.json
  libgtest-dev                                              # GoogleTest (the tests)
  libhwloc-dev                                              # the machine's topology (sockets, NUMA, L3, cores)
  libboost-dev libboost-math-dev                            # Boost.Math: references without an antiderivative
  libcli11-dev nlohmann-json3-dev                           # command line, JSON output
  libsqlite3-dev                                            # the history of runs (ladder history)
  libssl-dev                                                # OpenSSL's libcrypto: the history's SHA-256
  libtomlplusplus-dev                                       # toml++: the money model's costs file in TOML
  clang-format                                              # the format check in the tests
  # One Clang, for the tiers built by Clang (tests/clang_build_test.sh, the ClangBuild test).
  # libomp-N-dev packages conflict with each other (each Provides and Conflicts libomp-x.y-dev), so exactly
  # one LLVM OpenMP is installed: 16, the newest clang in bookworm main whose builds against Debian's Google
  # Benchmark, oneTBB, xsimd, Eigen and OpenMP were verified. apt-get -y below replaces an image's
  # libomp-14-dev (and the libomp-dev that depends on it) with it.
  clang-16 libomp-16-dev
  valgrind binutils                                         # instruction counts, ladder profile; objdump
  strace                                                    # tests/data_loss_test.py: an export killed between its renames
  likwid                                                    # hardware counters (likwid-perfctr)
  chromium python3 libxml2-utils                            # the report's browser test; xmllint for its SVG
  python3-numpy python3-numexpr python3-numba               # the Python peers (ladder run --peers python)
  pybind11-dev python3-pybind11 python3-dev                 # ladder export --python; the cpp-extension peer
  python3-line-profiler python3-memory-profiler             # ladder profile --peer: the Python rungs line by line
  pypy3 python3-pythran                                     # the pypy peers; the pythran peers' modules
  cython3                                                   # the Cython peers' modules and their yellow lines
)

# The tiers' libraries: the PACKAGES lines of cmake/libraries.cmake, the one place each is declared (this
# script runs before CMake is installed, so it reads that file as text; tests/libraries_check.py holds it to
# the rows).
library_rows="$(dirname "$0")/../cmake/libraries.cmake"
[ -r "$library_rows" ] || { echo "install-deps: cannot read $library_rows" >&2; exit 1; }
read -r -a library_packages <<< "$(sed -n 's/^[[:space:]]*PACKAGES[[:space:]]\+\([^#]*\).*/\1/p' "$library_rows" |
  tr '\n' ' ')"
packages+=("${library_packages[@]}")

# What only the tests need.
test_packages=(
  slurm-wlm munge                                           # a real one-machine Slurm (tests/slurm_cluster_test.sh)
  python3-yaml                                              # the exported CI job read as YAML (tests/ab_repository_test.sh)
)
[ "$with_tests" -eq 0 ] || packages+=("${test_packages[@]}")

# The aarch64 cross build (scripts/build-aarch64): Debian's cross compiler, qemu-user to run what it builds,
# and the libraries the tiers link as :arm64 multiarch packages beside the native ones (the header-only
# Eigen, CLI11 and nlohmann-json are architecture-independent: the list above has them). No Open MPI: the mpi
# tier is left out of the cross build (scripts/build-aarch64 says why).
cross_packages=(
  crossbuild-essential-arm64 qemu-user-static
  libbenchmark-dev:arm64 libgtest-dev:arm64 libxsimd-dev:arm64 libsleef-dev:arm64 libhwy-dev:arm64
  libtbb-dev:arm64 libhwloc-dev:arm64 libboost-dev:arm64 libboost-math-dev:arm64 libsqlite3-dev:arm64
  libssl-dev:arm64 libtomlplusplus-dev:arm64
)
if [ -n "$cross" ] && [ "$(dpkg --print-architecture)" = "$cross" ]; then
  # On an ARM Debian the list above is already the arm64 one: build natively, with no toolchain file.
  echo "install-deps: --cross $cross is not needed on an $cross machine; installing the native packages"
  cross=""
fi
[ -z "$cross" ] || packages+=("${cross_packages[@]}")

if [ "$list_only" -eq 1 ]; then
  printf '%s\n' "${packages[@]}"
  exit 0
fi

# NAME:ARCH is that architecture's package; a bare NAME the machine's own or an architecture-independent
# one. A multiarch library installed for two architectures has a status line for each.
native=$(dpkg --print-architecture)
installed() {
  local name=${1%%:*} arch=$native
  [ "$name" = "$1" ] || arch=${1#*:}
  dpkg-query -W -f='${db:Status-Status} ${Architecture}\n' "$name" 2>/dev/null | grep -qxE "installed ($arch|all)"
}
missing=()
for package in "${packages[@]}"; do
  installed "$package" || missing+=("$package")
done

if [ ${#missing[@]} -eq 0 ]; then
  dry_run_stop "nothing to install: everything is installed"
  echo "install-deps: everything is installed"
  exit 0
fi

dry_run_stop "apt-get install ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  echo "install-deps: missing packages: ${missing[*]}" >&2
  echo "install-deps: run this script as root (or install them with apt-get)" >&2
  exit 1
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# The :arm64 packages come from the arm64 lists, which apt reads only once dpkg knows the architecture.
if [ -n "$cross" ] && ! dpkg --print-foreign-architectures | grep -qx "$cross"; then
  dpkg --add-architecture "$cross"
fi
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "install-deps: done"
