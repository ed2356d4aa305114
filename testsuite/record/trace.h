/* The oracle for record-mode tests: a test program records, by hand, the
 * acyclic paths it runs, and the driver (run_case.py) checks that the path
 * profile saw exactly those paths, as many times; with k=N, also the
 * windows of consecutive paths (k-paths) below.
 *
 *   TRACE_ENTER();   first statement of a traced function
 *   T('a');          a marker, alone on its line (the driver maps the
 *                    source lines of a profiled path back to markers)
 *   TRACE_LOOP();    where the loop's back edge is taken: ends the current
 *                    acyclic path and starts the next (last statement of
 *                    the loop body, and before each `continue`)
 *   TRACE_LOOPS(n);  after an empty-bodied loop (`while (n-- > 0) ;`) that
 *                    took its back edge n times: no statement can go where
 *                    the back edge is, and nothing ran between the n path
 *                    ends, so they can all be recorded after the loop
 *   TRACE_GOTO();    just before a computed goto (`goto *p`): the path ends
 *                    there and the next starts at the label it jumps to
 *   TRACE_CUT();     just before a setjmp call: the path ends there, and
 *                    the one after setjmp starts a new sequence (below)
 *   TRACE_RESUMED(); in a traced function, first thing after setjmp
 *                    returned from a longjmp: the interrupted path of this
 *                    call and the calls longjmp left are dropped, as the
 *                    profile drops them; the next path starts a new sequence
 *   TRACE_LEAVE();   before each return
 *   TRACE_NORETURN(); before a call to a noreturn function (exit, longjmp,
 *                    a function declared noreturn): the profile counts the
 *                    path up to the call, and this call never returns; the
 *                    paths of its callers are interrupted (dropped by
 *                    TRACE_RESUMED, or never ended at exit)
 *
 * In C++, TRACE_ENTER() also declares a guard whose destructor, when an
 * exception unwinds the frame, ends the frame's path and leaves it: the guard
 * gives every traced frame a cleanup, and the profile counts a path that
 * leaves through a cleanup where it leaves (at the resx), with no marker on
 * the way. An exception caught in a traced frame just continues its path.
 *
 * k-paths (k-BLPP): the paths one call runs form sequences, and the trace
 * also counts every window of 2..TRACE_MAX_K (4 unless defined) consecutive
 * paths of a sequence, as the profile does with the plugin's k=N for
 * N <= TRACE_MAX_K (the driver compares the windows of up to N paths).
 * Consecutive paths are joined where a path ends and the same call goes on:
 * TRACE_LOOP, TRACE_LOOPS, TRACE_GOTO. A sequence starts at TRACE_ENTER
 * (each call, each recursive frame, has its own), after TRACE_CUT (the path
 * before setjmp ends its sequence; the paths after it, on the first return
 * and after TRACE_RESUMED, start new ones), and after TRACE_RESUMED; a
 * sequence ends where its call leaves (TRACE_LEAVE, TRACE_NORETURN, the C++
 * guard: the path an exception ends at the resx is the sequence's last),
 * and the interrupted path longjmp drops is in no window. A window is named
 * by its paths' markers joined by '|' ("ab|cd|cd"; an empty path is "").
 *
 * Functions are named by their file's basename and __func__, as
 * "file.c:name". The trace is kept once per process however many units and
 * shared libraries include this header (a weak definition), and written at
 * exit to $TRACE_OUT as
 * {"file.c:name": {"calls": n, "resumes": n, "paths": {"markers": count},
 *                  "k_paths": {"markers|markers...": count}}}.
 * Single-threaded; the trace functions do not throw. */
#ifndef PATHCOV_TEST_TRACE_H
#define PATHCOV_TEST_TRACE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* No EH edges from the trace calls: they must not change the CFG. */
#ifdef __cplusplus
#include <exception>
#define TRACE_NOTHROW noexcept
#else
#define TRACE_NOTHROW
#endif

#ifndef TRACE_MAX_K
#define TRACE_MAX_K 4
#endif
#if TRACE_MAX_K < 2
#error "TRACE_MAX_K: windows of at least 2 paths"
#endif

enum {
  TRACE_MAX_DEPTH = 256,
  TRACE_MAX_PATH = 128,
  TRACE_MAX_KINDS = 4096,
  /* A window's name: TRACE_MAX_K paths and the '|' between them. */
  TRACE_MAX_KEY = TRACE_MAX_K * TRACE_MAX_PATH
};

/* A function: its file (as __FILE__ spells it) and name. */
struct trace_function {
  const char *file;
  const char *name;
};

struct trace_frame {
  struct trace_function function;
  char path[TRACE_MAX_PATH];
  int length;
  /* The current sequence: its paths so far, and the last TRACE_MAX_K - 1
   * of them, the latest first. */
  int run;
  char recent[TRACE_MAX_K - 1][TRACE_MAX_PATH];
};

/* What a trace_kind counts. */
enum trace_what {
  TRACE_PATH,    /* runs of a path */
  TRACE_CALLS,   /* calls of the function */
  TRACE_RESUMES, /* times a longjmp came back to its setjmp */
  TRACE_WINDOW   /* runs of a window of consecutive paths */
};

/* A path (or window) of a function, or its calls or resumes (path ""). */
struct trace_kind {
  struct trace_function function;
  enum trace_what what;
  char path[TRACE_MAX_KEY];
  unsigned long count;
};

struct trace_state {
  struct trace_frame stack[TRACE_MAX_DEPTH];
  int depth;
  struct trace_kind kinds[TRACE_MAX_KINDS];
  int num_kinds;
  int registered;
};

/* One state for all the units and modules of the process: the dynamic
 * linker binds every copy of this weak symbol to the first definition. */
__attribute__((weak)) struct trace_state trace_state;

static void trace_fail(const char *what) TRACE_NOTHROW {
  fprintf(stderr, "trace.h: %s\n", what);
  abort();
}

static int trace_same(struct trace_function a,
                      struct trace_function b) TRACE_NOTHROW {
  return strcmp(a.name, b.name) == 0 && strcmp(a.file, b.file) == 0;
}

static void trace_write_name(FILE *f, struct trace_function function) {
  const char *slash = strrchr(function.file, '/');
  fprintf(f, "\"%s:%s\"", slash ? slash + 1 : function.file, function.name);
}

/* `function`'s kinds of `what` as a JSON object: {"path": count, ...}. */
static void trace_write_kinds(FILE *f, struct trace_function function,
                              enum trace_what what) {
  struct trace_kind *kinds = trace_state.kinds;
  const char *sep = "";
  fputs("{", f);
  for (int j = 0; j < trace_state.num_kinds; ++j)
    if (kinds[j].what == what && trace_same(kinds[j].function, function)) {
      fprintf(f, "%s\"%s\": %lu", sep, kinds[j].path, kinds[j].count);
      sep = ", ";
    }
  fputs("}", f);
}

static void trace_write(void) {
  const char *out = getenv("TRACE_OUT");
  FILE *f = out ? fopen(out, "w") : NULL;
  if (!f)
    return;
  fputs("{", f);
  const char *functionSep = "";
  struct trace_kind *kinds = trace_state.kinds;
  for (int i = 0; i < trace_state.num_kinds; ++i) {
    if (kinds[i].what != TRACE_CALLS)
      continue;
    fprintf(f, "%s\n ", functionSep);
    trace_write_name(f, kinds[i].function);
    unsigned long resumes = 0;
    for (int j = 0; j < trace_state.num_kinds; ++j)
      if (kinds[j].what == TRACE_RESUMES &&
          trace_same(kinds[j].function, kinds[i].function))
        resumes = kinds[j].count;
    fprintf(f, ": {\"calls\": %lu, \"resumes\": %lu, \"paths\": ",
            kinds[i].count, resumes);
    trace_write_kinds(f, kinds[i].function, TRACE_PATH);
    fputs(", \"k_paths\": ", f);
    trace_write_kinds(f, kinds[i].function, TRACE_WINDOW);
    fputs("}", f);
    functionSep = ",";
  }
  fputs("\n}\n", f);
  fclose(f);
}

/* The entry of `function` for `path` (a path or a window), or for its calls
 * or resumes (path ""). */
static struct trace_kind *trace_kind_of(struct trace_function function,
                                        enum trace_what what,
                                        const char *path) TRACE_NOTHROW {
  struct trace_kind *kinds = trace_state.kinds;
  int i = 0;
  while (i < trace_state.num_kinds &&
         (!trace_same(kinds[i].function, function) || kinds[i].what != what ||
          strcmp(kinds[i].path, path) != 0))
    ++i;
  if (i == trace_state.num_kinds) {
    if (i == TRACE_MAX_KINDS)
      trace_fail("too many paths");
    kinds[i].function = function;
    kinds[i].what = what;
    strcpy(kinds[i].path, path);
    ++trace_state.num_kinds;
  }
  return &kinds[i];
}

static void trace_enter(const char *file, const char *name) TRACE_NOTHROW {
  if (!trace_state.registered) {
    trace_state.registered = 1;
    atexit(trace_write);
  }
  if (trace_state.depth == TRACE_MAX_DEPTH)
    trace_fail("too deep");
  struct trace_function function = {file, name};
  ++trace_kind_of(function, TRACE_CALLS, "")->count;
  struct trace_frame *frame = &trace_state.stack[trace_state.depth++];
  frame->function = function;
  frame->length = 0;
  frame->path[0] = 0;
  frame->run = 0;
}

static struct trace_frame *trace_top(void) TRACE_NOTHROW {
  if (trace_state.depth == 0)
    trace_fail("no traced call");
  return &trace_state.stack[trace_state.depth - 1];
}

static void trace_mark(char marker) TRACE_NOTHROW {
  struct trace_frame *frame = trace_top();
  if (frame->length + 1 == TRACE_MAX_PATH)
    trace_fail("path too long");
  frame->path[frame->length++] = marker;
  frame->path[frame->length] = 0;
}

/* Counts the current path of the innermost call, and every window of 2..
 * TRACE_MAX_K paths of its sequence that ends with it; starts an empty
 * path, which goes on with the sequence. */
static void trace_end_path(void) TRACE_NOTHROW {
  struct trace_frame *frame = trace_top();
  ++trace_kind_of(frame->function, TRACE_PATH, frame->path)->count;
  /* The window of n paths: recent[n - 2], ..., recent[0], path. */
  char key[TRACE_MAX_KEY];
  for (int n = 2; n <= TRACE_MAX_K && n - 1 <= frame->run; ++n) {
    key[0] = 0;
    for (int i = n - 2; i >= 0; --i) {
      strcat(key, frame->recent[i]);
      strcat(key, "|");
    }
    strcat(key, frame->path);
    ++trace_kind_of(frame->function, TRACE_WINDOW, key)->count;
  }
  memmove(frame->recent[1], frame->recent[0],
          sizeof frame->recent - sizeof frame->recent[0]);
  strcpy(frame->recent[0], frame->path);
  ++frame->run;
  frame->length = 0;
  frame->path[0] = 0;
}

/* A cut (setjmp): trace_end_path, and the next path starts a new
 * sequence. */
static void trace_cut(void) TRACE_NOTHROW {
  trace_end_path();
  trace_top()->run = 0;
}

static void trace_end_paths(int n) TRACE_NOTHROW {
  for (int i = 0; i < n; ++i)
    trace_end_path();
}

static void trace_resumed(const char *file, const char *name) TRACE_NOTHROW {
  struct trace_function function = {file, name};
  while (trace_state.depth > 0 &&
         !trace_same(trace_state.stack[trace_state.depth - 1].function,
                     function))
    --trace_state.depth;
  struct trace_frame *frame = trace_top();
  frame->length = 0;
  frame->path[0] = 0;
  frame->run = 0;
  ++trace_kind_of(function, TRACE_RESUMES, "")->count;
}

static void trace_leave(void) TRACE_NOTHROW {
  trace_end_path();
  --trace_state.depth;
}

#ifdef __cplusplus
/* Ends the frame's path and leaves it when an exception unwinds the frame. */
struct trace_guard {
  int uncaught = std::uncaught_exceptions();
  bool left = false;
  ~trace_guard() {
    if (left)
      return;
    if (std::uncaught_exceptions() <= uncaught)
      trace_fail("returned without TRACE_LEAVE");
    trace_leave();
  }
};
#define TRACE_ENTER()                                                          \
  trace_guard trace_guard_;                                                    \
  trace_enter(__FILE__, __func__)
#define TRACE_LEAVE() (trace_guard_.left = true, trace_leave())
#else
#define TRACE_ENTER() trace_enter(__FILE__, __func__)
#define TRACE_LEAVE() trace_leave()
#endif
#define TRACE_NORETURN() TRACE_LEAVE()

#define T(marker) trace_mark(marker)
#define TRACE_LOOP() trace_end_path()
#define TRACE_LOOPS(n) trace_end_paths(n)
#define TRACE_GOTO() trace_end_path()
#define TRACE_CUT() trace_cut()
#define TRACE_RESUMED() trace_resumed(__FILE__, __func__)

#endif
