#!/usr/bin/env bash
# Installs the Debian packages ascendopt needs to build, test and run.
# Idempotent: packages already present are skipped, and `apt-get update` runs at most
# once per invocation, only when something is missing. Needs root (or sudo) for installs.
set -euo pipefail

packages=(
  build-essential binutils cmake ninja-build pkg-config ccache
  nlohmann-json3-dev libtomlplusplus-dev libcli11-dev libfmt-dev libsqlite3-dev sqlite3
  libgtest-dev libgmock-dev libbenchmark-dev
  python3 python3-numpy
  bubblewrap
  libcurl4-openssl-dev libcpp-httplib-dev
  diffutils patch gnuplot-nox
)
# Extras, any of:
#   --fuzz  the clang toolchain with libFuzzer (make fuzz);
#   --test  headless Chromium and ChromeDriver, for the test that opens the HTML report, and
#           Slurm (slurmctld, slurmd, its client commands) with munge, for the test that runs a
#           study on a one-node cluster (make test; no service is started by the install).
for extra in "$@"; do
  case "$extra" in
    --fuzz) packages+=(clang libclang-rt-14-dev) ;;
    --test) packages+=(chromium chromium-driver fonts-liberation slurmctld slurmd slurm-client munge) ;;
    *) echo "ascendopt: error: install-deps.sh: unknown option '$extra' (known: --fuzz, --test)" >&2; exit 2 ;;
  esac
done

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present" >&2
  exit 0
fi

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    sudo_cmd=(sudo)
  else
    echo "ascendopt: error: missing packages (${missing[*]}) and not root; run this script as root" >&2
    exit 1
  fi
fi

echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
