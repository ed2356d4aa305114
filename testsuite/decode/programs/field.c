/* A program whose test runs and field runs take known paths, for
 * decode_case.py. Each function says which paths its tests take and which
 * its field runs take; the lines the decoding must name are marked with
 * "@name" comments (the script finds them by name, not by number).
 *
 * Arguments, run in order: x:N classify(N), v:TEXT vowels(TEXT),
 * c:C command(C), n:N repeat(N), s:TEXT shout(TEXT), l:N legacy(N),
 * crash (abort), request (pathcov_report_write($FIELD_REQUEST_FILE)). */
#include <pathcov/pathcov.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Tests: 2 and 7 (both parities, always positive). Field: -3 (odd,
 * negative): `if (x > 0)` takes false. Nearest tested path: 7's (same
 * parity branch, so the longest shared prefix). */
static int classify(int x) {
  int r;
  if (x % 2 == 0) /* @parity */
    r = 2;
  else
    r = 1;
  if (x > 0) /* @sign */
    r += 10;
  else
    r -= 10;
  return r;
}

/* Tests: "aei" (every letter a vowel). Field: "xyz": the vowel test takes
 * false, on the first iteration (a path from entry) and on the next two (a
 * path from the loop head, twice). */
static int vowels(const char *s) {
  int n = 0;
  for (; *s; ++s)
    if (strchr("aeiou", *s)) /* @vowel */
      ++n;
  return n;
}

/* Tests: 'a' and 'b'. Field: 'z', the default case. */
static int command(int c) {
  switch (c) { /* @switch */
  case 'a':
    return 1; /* @case_a */
  case 'b':
    return 2; /* @case_b */
  default:
    return 0; /* @default */
  }
}

/* Tests: 0 only, the loop never iterates. Field: 2: the loop condition
 * takes true on entry, and the paths from the loop head (after the back
 * edge) start where no tested path starts. */
static int repeat(int n) {
  int total = 0;
  for (int i = 0; i < n; ++i) /* @repeat */
    total += i;
  return total;
}

/* Never run by the tests: every path of it is residual (untested). */
static int shout(const char *s) {
  int n = 0;
  for (; *s; ++s)
    if (*s == '!')
      ++n;
  return n;
}

static int legacy(int x);

int main(int argc, char **argv) {
  long sum = 0;
  for (int i = 1; i < argc; ++i) {
    const char *arg = argv[i];
    if (strcmp(arg, "crash") == 0) {
      fflush(stdout);
      abort();
    }
    if (strcmp(arg, "request") == 0) {
      if (pathcov_report_write(getenv("FIELD_REQUEST_FILE")) != 0)
        perror("pathcov_report_write");
      continue;
    }
    const char *value = arg + 2;
    switch (arg[0]) {
    case 'x':
      sum += classify(atoi(value));
      break;
    case 'v':
      sum += vowels(value);
      break;
    case 'c':
      sum += command(value[0]);
      break;
    case 'n':
      sum += repeat(atoi(value));
      break;
    case 's':
      sum += shout(value);
      break;
    case 'l':
      sum += legacy(atoi(value));
      break;
    default:
      fprintf(stderr, "unknown argument %s\n", arg);
      return 2;
    }
  }
  printf("%ld\n", sum);
  return 0;
}

/* Last, so that the lines above are the same in both builds: the tests ran
 * a build with OLD_LEGACY, whose CFG differs, so the corpus is stale for
 * legacy in the field build. Tests: 7. Field: 1. */
static int legacy(int x) {
#ifdef OLD_LEGACY
  if (x < 0)
    x = -x;
#endif
  if (x > 5) /* @legacy */
    return 1;
  return 0;
}
