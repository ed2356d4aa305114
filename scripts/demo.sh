#!/bin/sh
# The main job, end to end, on a small multi-file C project with its own
# test suite (testsuite/projects/calc): build it with the pathcov plugin,
# run its tests (each naming itself in PATHCOV_TEST), collect the profiles
# into the tested-path corpus, and show what the tests covered and missed;
# then build the release against the corpus (residual mode), run it "in the
# field", decode the report of the paths the tests never ran, merge it into
# the corpus and give CI's verdict.
set -eu
cd "$(dirname "$0")/.."
top=$(pwd)
build=$(cd "${BUILD:-build}" && pwd)
out="$build/demo"
pathcov="$build/coverage/pathcov"

rm -rf "$out"
mkdir -p "$out/profiles"
cp -a testsuite/projects/calc "$out/calc"
# Each copy is a project of its own, as a checkout would be (.git): its
# files are recorded relative to it, so the release copy's functions are
# the same functions (docs/record-mode.md, "Source paths and identities").
touch "$out/calc/.pathcov-root"

echo "== 1. Build calc with the plugin (record mode)"
make -s -C "$out/calc" CC=gcc \
  CFLAGS="-O2 -g -fplugin=$build/plugin/pathcov.so" \
  LDLIBS="$build/runtime/libpathcov-rt.a -lpthread"

echo "== 2. Run calc's test suite; each process writes a profile"
PATHCOV_PROFILE_DIR="$out/profiles" make -s -C "$out/calc" check
ls "$out/profiles" | sed 's/^/   /'

echo "== 3. pathcov collect: profiles -> the tested-path corpus"
"$pathcov" collect -o "$out/corpus.json" "$out/profiles"
echo "   $out/corpus.json"

echo "== 4. pathcov show: path coverage per function"
"$pathcov" show --summary --by-function "$out/corpus.json" | sed "s|$out/calc/||"

echo "== 5. Paths of term() the tests ran, and those they never ran"
"$pathcov" show -f term "$out/corpus.json" | sed "s|$out/calc/||"
"$pathcov" show --untested -f term "$out/corpus.json" | tail -n +2

echo "== 6. The release build: residual mode against the corpus"
mkdir -p "$out/release"
cp -a testsuite/projects/calc/. "$out/release/"
touch "$out/release/.pathcov-root"
make -s -C "$out/release" clean
make -s -C "$out/release" CC=gcc \
  CFLAGS="-O2 -g -fplugin=$build/plugin/pathcov.so -fplugin-arg-pathcov-mode=residual -fplugin-arg-pathcov-corpus=$out/corpus.json -fplugin-arg-pathcov-stats" \
  LDLIBS="$build/runtime/libpathcov-rt.a -lpthread" 2>&1 | sed "s|$out/release/||"

echo "== 7. In the field: expressions the tests never tried"
PATHCOV_REPORT_DIR="$out/reports" "$out/release/calc" "7-2-1" "8/(4-4)" "2*x" || true
ls "$out/reports" | sed 's/^/   /'

echo "== 8. pathcov decode: the untested paths the field run took"
"$pathcov" decode "$out"/reports/*.json | sed "s|$out/release/||"

echo "== 9. pathcov merge: the field report into the corpus"
"$pathcov" merge --quiet -o "$out/merged.json" "$out/corpus.json" "$out/reports"
echo "   $out/merged.json: the paths the field ran are now field-observed"

echo "== 10. pathcov report: HTML (and LCOV, Cobertura, SonarQube, SARIF)"
"$pathcov" report --format html -o "$out/html" "$out/merged.json"
echo "   file://$out/html/index.html"

echo "== 11. pathcov gate: CI's verdict against the tests' corpus"
status=0
"$pathcov" gate "$out/merged.json" --baseline "$out/corpus.json" \
  --fail-under-paths 40 --no-new-residual || status=$?
echo "   (gate exit status $status: 1 + 64, new residual paths)"
