#!/bin/sh
# calc's test suite. Each test names itself in PATHCOV_TEST, so that the
# corpus says which test ran which path.
set -u
calc=${1:-./calc}
failed=0

check() { # NAME EXPECTED-OUTPUT ARGS...
  name=$1 expected=$2
  shift 2
  actual=$(PATHCOV_TEST="$name" "$calc" "$@")
  if [ "$actual" = "$expected" ]; then
    echo "PASS $name"
  else
    echo "FAIL $name: expected '$expected', got '$actual'"
    failed=$((failed + 1))
  fi
}

check add         "1+2 = 3"                    "1+2"
check precedence  "2+3*4 = 14"                 "2+3*4"
check parentheses "(2+3)*4 = 20"               "(2+3)*4"
check negative    "-5+2 = -3"                  "-5+2"
check divide      "9/3 = 3"                    "9/3"
check div-by-zero "1/0: error: division by zero" "1/0"
check unbalanced  "(1+2: error: expected ')'"  "(1+2"
[ "$failed" -eq 0 ]
