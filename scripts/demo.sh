#!/bin/sh
# The main job. For now: number the papers' examples with `pathcov number`
# and show what the numbering gives.
set -eu
cd "$(dirname "$0")/.."
pathcov="${BUILD:-build}/coverage/pathcov"

for example in ppp-figure3 ppp-figure6 ball-larus-figure10; do
  input="testsuite/number/$example.json"
  echo "== $example: $pathcov number $input"
  "$pathcov" number "$input" | python3 scripts/summarize-numbering.py
  echo
done
