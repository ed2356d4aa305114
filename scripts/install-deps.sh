#!/bin/sh
# Installs the Debian bookworm packages pathcov needs to build and test
# (autotools and Meson: the build-system tests, docs/in-your-build.md;
# csmith: residual mode on random programs, testsuite/residual; valgrind:
# the runtime under memcheck, as test suites run it), if any are missing;
# with --bench, also what `make bench` needs (time, tclsh for sqlite's
# amalgamation, Unicode data for re2's tables);
# with --fuzz, what `make fuzz` needs (AFL++).
# Installing needs root (or sudo).
set -eu

packages="build-essential cmake pkg-config gcc-12-plugin-dev libelf-dev
libgtest-dev nlohmann-json3-dev libsimdjson-dev libcli11-dev libsqlite3-dev libdw-dev python3 python3-jsonschema lcov gcovr chromium
autoconf automake libtool meson csmith libcsmith-dev valgrind dwz"
case "${1:-}" in
--bench) packages="$packages time tcl unicode-data python3-six" ;;
--fuzz) packages="$packages afl++" ;; # brings clang: afl-clang-fast
esac

missing=""
for p in $packages; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
    || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

echo "install-deps: installing:$missing" >&2
if [ "$(id -u)" = 0 ]; then
  as_root=""
elif command -v sudo >/dev/null 2>&1; then
  as_root="sudo"
else
  echo "install-deps: need root to install:$missing" >&2
  exit 1
fi
$as_root apt-get update -qq
# shellcheck disable=SC2086
DEBIAN_FRONTEND=noninteractive $as_root apt-get install -y -qq --no-install-recommends $missing
