/* Calling contexts of residual paths (testsuite/residual/check_contexts.py).
 * classify(x) with x > 100 is the residual path (the tests run x = 5); the
 * field reaches it through call chains run a known number of times each:
 *   chains ROUNDS: via_a <- chains 5 times a round, via_b <- chains 3 times,
 *                  via_b <- via_c <- chains once;
 *   many ROUNDS:   six chains, d1..d6 <- call_chain, 40, 20, 10, 5, 3 and 2
 *                  times a round, interleaved (more than a path keeps);
 *   threads N:     two threads, each via_a <- worker N times;
 *   signal:        via_a <- on_signal <- (the signal frame, raise) <- raiser;
 *   crash:         chains 1, then a null store: the crash report's contexts;
 *   inlined:       classify <- scaled, inlined into via_inline, whose first
 *                  instructions are scaled's; and starts_inlined, which
 *                  starts with bits_of's inlined code, its x > 100 branch
 *                  untested too;
 *   split N:       classify <- split_head's cold tail, which GCC splits off
 *                  (split_head.part.0) and calls from split_head's head,
 *                  at the function's first line (at -O2 both are inlined
 *                  back into main).
 * Every function but the inlined and the split ones is noipa, so each call
 * is a call. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KEEP __attribute__((noipa))

KEEP int classify(int x) {
  if (x > 100)
    return 2;
  if (x < 0)
    return 1;
  return 0;
}
KEEP int via_a(int x) { return classify(x) + 1; /* line: via_a */ }
KEEP int via_b(int x) { return classify(x) + 2; /* line: via_b */ }
KEEP int via_c(int x) { return via_b(x) + 3; /* line: via_c */ }
KEEP int d1(int x) { return classify(x) + 1; }
KEEP int d2(int x) { return classify(x) + 2; }
KEEP int d3(int x) { return classify(x) + 3; }
KEEP int d4(int x) { return classify(x) + 4; }
KEEP int d5(int x) { return classify(x) + 5; }
KEEP int d6(int x) { return classify(x) + 6; }

static inline __attribute__((always_inline)) int scaled(int x) {
  return classify(x) * 3; /* line: scaled -> classify */
}
KEEP int via_inline(int x) { return scaled(x) + 1; /* line: via_inline */ }
static inline __attribute__((always_inline)) unsigned long bits_of(double d) {
  unsigned long u;
  memcpy(&u, &d, sizeof u);
  return u;
}
KEEP int starts_inlined(double d, int x) {
  const unsigned long u = bits_of(d);
  if (x > 100)
    return (int)(u & 1);
  return (int)((u >> 3) & 7);
}

int split_head(int x, int n) {
  if (__builtin_expect(n < 4, 1))
    return n;
  int h = 0;
  for (int i = 0; i < n; ++i)
    h += classify(x + i); /* line: split tail -> classify */
  printf("long %d\n", h);
  return h;
}

static int input;
static long sum;

KEEP static long chains(int x, int rounds) {
  long s = 0;
  for (int r = 0; r < rounds; ++r) {
    for (int i = 0; i < 5; ++i)
      s += via_a(x); /* line: main -> via_a */
    for (int i = 0; i < 3; ++i)
      s += via_b(x); /* line: main -> via_b */
    s += via_c(x); /* line: main -> via_c */
  }
  return s;
}

/* One call site per chain (no tail call), so that with a context depth of
 * 3 (classify, d1..d6, call_chain) each chain is one context. */
KEEP static int call_chain(int k, int x) {
  switch (k) {
  case 0: return d1(x) * 2;
  case 1: return d2(x) * 2;
  case 2: return d3(x) * 2;
  case 3: return d4(x) * 2;
  case 4: return d5(x) * 2;
  default: return d6(x) * 2;
  }
}

KEEP static long many(int x, int rounds) {
  static const int times[] = {40, 20, 10, 5, 3, 2};
  long s = 0;
  for (int r = 0; r < rounds; ++r)
    for (int step = 0; step < 40; ++step) /* each chain spread over a round */
      for (int k = 0; k < 6; ++k)
        if (step * times[k] / 40 != (step + 1) * times[k] / 40)
          s += call_chain(k, x);
  return s;
}

static void *worker(void *arg) {
  long s = 0;
  for (int i = 0; i < *(int *)arg; ++i)
    s += via_a(input); /* line: worker -> via_a */
  __atomic_fetch_add(&sum, s, __ATOMIC_RELAXED);
  return NULL;
}

static void on_signal(int sig) {
  (void)sig;
  sum += via_a(input); /* line: on_signal -> via_a */
}

KEEP static void raiser(void) {
  raise(SIGUSR1); /* line: raiser */
  sum += 1;
}

int main(int argc, char **argv) {
  input = argc > 1 ? atoi(argv[1]) : 5;
  const char *mode = argc > 2 ? argv[2] : "chains";
  int n = argc > 3 ? atoi(argv[3]) : 1;
  if (strcmp(mode, "chains") == 0 || strcmp(mode, "crash") == 0) {
    sum = chains(input, n);
    if (strcmp(mode, "crash") == 0) {
      fflush(stdout);
      *(volatile int *)(sum > 0 ? NULL : &n) = 1;
    }
  } else if (strcmp(mode, "many") == 0) {
    sum = many(input, n);
  } else if (strcmp(mode, "threads") == 0) {
    pthread_t t[2];
    for (int i = 0; i < 2; ++i)
      pthread_create(&t[i], NULL, worker, &n);
    for (int i = 0; i < 2; ++i)
      pthread_join(t[i], NULL);
  } else if (strcmp(mode, "inlined") == 0) {
    sum = via_inline(input) + starts_inlined(1.5, input);
  } else if (strcmp(mode, "split") == 0) {
    sum = split_head(input, n);
  } else if (strcmp(mode, "signal") == 0) {
    signal(SIGUSR1, on_signal);
    raiser();
  }
  printf("%ld\n", sum);
  return 0;
}
