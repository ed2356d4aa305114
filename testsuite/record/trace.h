/* The oracle for record-mode tests: a test program records, by hand, the
 * acyclic paths it runs, and the driver (run_case.py) checks that the path
 * profile saw exactly those paths, as many times.
 *
 *   TRACE_ENTER();   first statement of a traced function
 *   T('a');          a marker, alone on its line (the driver maps the
 *                    source lines of a profiled path back to markers)
 *   TRACE_LOOP();    where the loop's back edge is taken: ends the current
 *                    acyclic path and starts the next (last statement of
 *                    the loop body, and before each `continue`)
 *   TRACE_CUT();     a path boundary the profile also has: just before a
 *                    setjmp call
 *   TRACE_RESUMED(); in a traced function, first thing after setjmp
 *                    returned from a longjmp: the interrupted path of this
 *                    call and the calls longjmp left are dropped, as the
 *                    profile drops them
 *   TRACE_LEAVE();   before each return
 *
 * At exit the calls and paths go to $TRACE_OUT as
 * {"function": {"calls": n, "paths": {"markers": count}}}.
 * Single-threaded; the trace functions do not throw. */
#ifndef PATHCOV_TEST_TRACE_H
#define PATHCOV_TEST_TRACE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* No EH edges from the trace calls: they must not change the CFG. */
#ifdef __cplusplus
#define TRACE_NOTHROW noexcept
#else
#define TRACE_NOTHROW
#endif

enum { TRACE_MAX_DEPTH = 256, TRACE_MAX_PATH = 128, TRACE_MAX_KINDS = 4096 };

struct trace_frame {
  const char *function;
  char path[TRACE_MAX_PATH];
  int length;
};

/* A path of a function, or (calls) its number of calls. */
struct trace_kind {
  const char *function;
  int calls;
  char path[TRACE_MAX_PATH];
  unsigned long count;
};

static struct trace_frame trace_stack[TRACE_MAX_DEPTH];
static int trace_depth;
static struct trace_kind trace_kinds[TRACE_MAX_KINDS];
static int trace_num_kinds;

static void trace_fail(const char *what) TRACE_NOTHROW {
  fprintf(stderr, "trace.h: %s\n", what);
  abort();
}

static void trace_write(void) {
  const char *out = getenv("TRACE_OUT");
  FILE *f = out ? fopen(out, "w") : NULL;
  if (!f)
    return;
  fputs("{", f);
  const char *functionSep = "";
  for (int i = 0; i < trace_num_kinds; ++i) {
    if (!trace_kinds[i].calls)
      continue;
    fprintf(f, "%s\n \"%s\": {\"calls\": %lu, \"paths\": {", functionSep,
            trace_kinds[i].function, trace_kinds[i].count);
    functionSep = ",";
    const char *sep = "";
    for (int j = 0; j < trace_num_kinds; ++j)
      if (!trace_kinds[j].calls &&
          strcmp(trace_kinds[j].function, trace_kinds[i].function) == 0) {
        fprintf(f, "%s\"%s\": %lu", sep, trace_kinds[j].path,
                trace_kinds[j].count);
        sep = ", ";
      }
    fputs("}}", f);
  }
  fputs("\n}\n", f);
  fclose(f);
}

/* The entry of `function` for `path`, or for its calls. */
static struct trace_kind *trace_kind_of(const char *function, int calls,
                                        const char *path) TRACE_NOTHROW {
  int i = 0;
  while (i < trace_num_kinds &&
         (strcmp(trace_kinds[i].function, function) != 0 ||
          trace_kinds[i].calls != calls ||
          strcmp(trace_kinds[i].path, path) != 0))
    ++i;
  if (i == trace_num_kinds) {
    if (i == TRACE_MAX_KINDS)
      trace_fail("too many paths");
    trace_kinds[i].function = function;
    trace_kinds[i].calls = calls;
    strcpy(trace_kinds[i].path, path);
    ++trace_num_kinds;
  }
  return &trace_kinds[i];
}

static void trace_enter(const char *function) TRACE_NOTHROW {
  static int registered;
  if (!registered) {
    registered = 1;
    atexit(trace_write);
  }
  if (trace_depth == TRACE_MAX_DEPTH)
    trace_fail("too deep");
  ++trace_kind_of(function, 1, "")->count;
  struct trace_frame *frame = &trace_stack[trace_depth++];
  frame->function = function;
  frame->length = 0;
  frame->path[0] = 0;
}

static void trace_mark(char marker) TRACE_NOTHROW {
  struct trace_frame *frame = &trace_stack[trace_depth - 1];
  if (frame->length + 1 == TRACE_MAX_PATH)
    trace_fail("path too long");
  frame->path[frame->length++] = marker;
  frame->path[frame->length] = 0;
}

/* Counts the current path of the innermost call and starts an empty one. */
static void trace_end_path(void) TRACE_NOTHROW {
  struct trace_frame *frame = &trace_stack[trace_depth - 1];
  ++trace_kind_of(frame->function, 0, frame->path)->count;
  frame->length = 0;
  frame->path[0] = 0;
}

static void trace_resumed(const char *function) TRACE_NOTHROW {
  while (trace_depth > 0 &&
         strcmp(trace_stack[trace_depth - 1].function, function) != 0)
    --trace_depth;
  if (trace_depth == 0)
    trace_fail("resumed in a function with no traced call");
  trace_stack[trace_depth - 1].length = 0;
  trace_stack[trace_depth - 1].path[0] = 0;
}

static void trace_leave(void) TRACE_NOTHROW {
  trace_end_path();
  --trace_depth;
}

#define TRACE_ENTER() trace_enter(__func__)
#define T(marker) trace_mark(marker)
#define TRACE_LOOP() trace_end_path()
#define TRACE_CUT() trace_end_path()
#define TRACE_RESUMED() trace_resumed(__func__)
#define TRACE_LEAVE() trace_leave()

#endif
