# Shared by the tools/ scripts: find or install the build dependencies, and build a CMake preset.
# Source it; do not run it.

# Debian 12 packages fleetsim needs to build and test. Nothing is vendored or downloaded at build
# time: every library comes from here.
FLEETSIM_DEBIAN_PACKAGES=(
  cmake ninja-build g++ pkg-config
  libboost-graph-dev nlohmann-json3-dev libcli11-dev libfmt-dev libspdlog-dev
  libgtest-dev libgmock-dev libbenchmark-dev
)

# Installs missing packages with apt-get when running as root; otherwise prints the exact
# command and fails.
fleetsim_ensure_packages() {
  local missing=()
  local pkg
  for pkg in "${FLEETSIM_DEBIAN_PACKAGES[@]}"; do
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
    apt-get update -q >&2 || return 1
    apt-get install -y -q --no-install-recommends "${missing[@]}" >&2 || return 1
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
