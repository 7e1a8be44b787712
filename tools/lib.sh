# Shared by the tools/ scripts: find or install the build dependencies, and build a CMake preset.
# Source it; do not run it.

# Debian 12 packages fleetsim needs to build and test. Nothing is vendored or downloaded at build
# time: every library comes from here.
FLEETSIM_DEBIAN_PACKAGES=(
  cmake ninja-build g++ pkg-config
  libboost-graph-dev nlohmann-json3-dev libcli11-dev libfmt-dev libspdlog-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  coinor-libcbc-dev
  python3-dev pybind11-dev
  libyaml-dev
)

# Debian 12 packages only the tests need: chromium renders the bench and sweep reports headless
# (tests/unit/report/html_render_test.cc, tests/unit/sweep/sweep_report_test.cc); python3 runs
# tools/random-family (tests/cli/random_family_cli_test.cc) and writes fuzz seeds; clang 14 and
# its runtime libraries (sanitizers, libFuzzer) build the ci-sanitize preset and the fuzz targets
# (tests/fuzz); Slurm and munge run the private cluster of tools/slurm-local that
# tests/cli/sweep_slurm_cli_test.cc submits a sweep to; pytest and pandas run the Python module's
# tests (python/tests), whose results come back as DataFrames; prometheus brings promtool, which
# loads `fleetsim export --dcgm` output into a TSDB (tests/cli/export_cli_test.cc); strace
# delivers a signal at a chosen open(2) (tests/cli/cli_test.cc, the temporaries' signal test).
FLEETSIM_SLURM_PACKAGES=(slurmctld slurmd slurm-client munge)
FLEETSIM_TEST_PACKAGES=(chromium python3 clang-14 libclang-rt-14-dev strace
                        "${FLEETSIM_SLURM_PACKAGES[@]}"
                        python3-pytest python3-pandas prometheus)

# Debian 12 packages of a Slurm with accounting, which tools/slurm-oracle --policy fair-share
# needs (fair-share usage lives in slurmdbd, and slurmdbd in MariaDB); it installs them itself.
FLEETSIM_ACCOUNTING_PACKAGES=(slurmdbd mariadb-server)

# Installs missing packages with apt-get when running as root; otherwise prints the exact
# command and fails. The arguments name the package lists (arrays) to ensure; without any, the
# build packages, FLEETSIM_DEBIAN_PACKAGES.
fleetsim_ensure_packages() {
  local lists=("$@")
  if [ "${#lists[@]}" -eq 0 ]; then
    lists=(FLEETSIM_DEBIAN_PACKAGES)
  fi
  local wanted=()
  local list
  for list in "${lists[@]}"; do
    local -n packages="$list"
    wanted+=("${packages[@]}")
    unset -n packages
  done
  local missing=()
  local pkg
  for pkg in "${wanted[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
      missing+=("$pkg")
    fi
  done
  if [ "${#missing[@]}" -eq 0 ]; then
    return 0
  fi
  if [ "$(id -u)" -eq 0 ]; then
    echo "fleetsim: installing missing packages: ${missing[*]}" >&2
    export DEBIAN_FRONTEND=noninteractive
    # Packages must not start system services (munge, slurmd, slurmctld) on a host that would:
    # a policy-rc.d that refuses, for the install only, where the host has none.
    local policy=/usr/sbin/policy-rc.d
    local added_policy=0
    if [ ! -e "$policy" ]; then
      printf '#!/bin/sh\nexit 101\n' > "$policy" && chmod +x "$policy" && added_policy=1
    fi
    local status=0
    { apt-get update -q >&2 && apt-get install -y -q --no-install-recommends "${missing[@]}" >&2; } ||
      status=1
    if [ "$added_policy" -eq 1 ]; then
      rm -f "$policy"
    fi
    return "$status"
  else
    echo "fleetsim: missing packages: ${missing[*]}" >&2
    echo "fleetsim: install them with:" >&2
    echo "  sudo apt-get install -y --no-install-recommends ${missing[*]}" >&2
    return 1
  fi
}

# Configures (once) and builds a preset; incremental on later runs.
fleetsim_build() {
  local preset="$1"
  shift
  if [ ! -f "build/$preset/CMakeCache.txt" ]; then
    cmake --preset "$preset" "$@" || return 1
  fi
  cmake --build --preset "$preset" || return 1
}

# Configures (once) and builds the given targets of a preset.
fleetsim_build_targets() {
  local preset="$1"
  shift
  if [ ! -f "build/$preset/CMakeCache.txt" ]; then
    cmake --preset "$preset" || return 1
  fi
  cmake --build --preset "$preset" --target "$@" || return 1
}

# Configures (once) and builds only the fleetsim command of a preset (no tests, no benchmarks):
# what the main job needs, in about half the time of a full build.
fleetsim_build_cli() {
  local preset="$1"
  if [ ! -f "build/$preset/CMakeCache.txt" ]; then
    cmake --preset "$preset" || return 1
  fi
  cmake --build --preset "$preset" --target fleetsim || return 1
}
