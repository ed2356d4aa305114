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
 *   TRACE_LOOPS(n);  after an empty-bodied loop (`while (n-- > 0) ;`) that
 *                    took its back edge n times: no statement can go where
 *                    the back edge is, and nothing ran between the n path
 *                    ends, so they can all be recorded after the loop
 *   TRACE_CUT();     a path boundary the profile also has: just before a
 *                    setjmp call, or a computed goto (`goto *p`)
 *   TRACE_RESUMED(); in a traced function, first thing after setjmp
 *                    returned from a longjmp: the interrupted path of this
 *                    call and the calls longjmp left are dropped, as the
 *                    profile drops them
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
 * Functions are named by their file's basename and __func__, as
 * "file.c:name". The trace is kept once per process however many units and
 * shared libraries include this header (a weak definition), and written at
 * exit to $TRACE_OUT as
 * {"file.c:name": {"calls": n, "resumes": n, "paths": {"markers": count}}}.
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

enum { TRACE_MAX_DEPTH = 256, TRACE_MAX_PATH = 128, TRACE_MAX_KINDS = 4096 };

/* A function: its file (as __FILE__ spells it) and name. */
struct trace_function {
  const char *file;
  const char *name;
};

struct trace_frame {
  struct trace_function function;
  char path[TRACE_MAX_PATH];
  int length;
};

/* A path of a function (calls 0), its number of calls (calls 1), or the
 * number of times a longjmp came back to its setjmp (calls 2). */
struct trace_kind {
  struct trace_function function;
  int calls;
  char path[TRACE_MAX_PATH];
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

static void trace_write(void) {
  const char *out = getenv("TRACE_OUT");
  FILE *f = out ? fopen(out, "w") : NULL;
  if (!f)
    return;
  fputs("{", f);
  const char *functionSep = "";
  struct trace_kind *kinds = trace_state.kinds;
  for (int i = 0; i < trace_state.num_kinds; ++i) {
    if (kinds[i].calls != 1)
      continue;
    fprintf(f, "%s\n ", functionSep);
    trace_write_name(f, kinds[i].function);
    unsigned long resumes = 0;
    for (int j = 0; j < trace_state.num_kinds; ++j)
      if (kinds[j].calls == 2 && trace_same(kinds[j].function, kinds[i].function))
        resumes = kinds[j].count;
    fprintf(f, ": {\"calls\": %lu, \"resumes\": %lu, \"paths\": {",
            kinds[i].count, resumes);
    functionSep = ",";
    const char *sep = "";
    for (int j = 0; j < trace_state.num_kinds; ++j)
      if (!kinds[j].calls && trace_same(kinds[j].function, kinds[i].function)) {
        fprintf(f, "%s\"%s\": %lu", sep, kinds[j].path, kinds[j].count);
        sep = ", ";
      }
    fputs("}}", f);
  }
  fputs("\n}\n", f);
  fclose(f);
}

/* The entry of `function` for `path`, or for its calls. */
static struct trace_kind *trace_kind_of(struct trace_function function,
                                        int calls,
                                        const char *path) TRACE_NOTHROW {
  struct trace_kind *kinds = trace_state.kinds;
  int i = 0;
  while (i < trace_state.num_kinds &&
         (!trace_same(kinds[i].function, function) || kinds[i].calls != calls ||
          strcmp(kinds[i].path, path) != 0))
    ++i;
  if (i == trace_state.num_kinds) {
    if (i == TRACE_MAX_KINDS)
      trace_fail("too many paths");
    kinds[i].function = function;
    kinds[i].calls = calls;
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
  ++trace_kind_of(function, 1, "")->count;
  struct trace_frame *frame = &trace_state.stack[trace_state.depth++];
  frame->function = function;
  frame->length = 0;
  frame->path[0] = 0;
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

/* Counts the current path of the innermost call and starts an empty one. */
static void trace_end_path(void) TRACE_NOTHROW {
  struct trace_frame *frame = trace_top();
  ++trace_kind_of(frame->function, 0, frame->path)->count;
  frame->length = 0;
  frame->path[0] = 0;
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
  ++trace_kind_of(function, 2, "")->count;
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
#define TRACE_CUT() trace_end_path()
#define TRACE_RESUMED() trace_resumed(__FILE__, __func__)

#endif
