/* gcov oracle: a small stack machine. A loop around a switch (the classic
 * interpreter), a table of handlers called through pointers, recursion
 * through the machine (CALL), an early exit() from deep inside (HALT: the
 * path ends at a noreturn call). Usage: dispatch PROGRAM... where each
 * PROGRAM is a string of instructions run by a fresh machine:
 *   0-9 push the digit     + - * / arithmetic   d dup   s swap   p print
 *   [  when the top is zero, pop it and skip past the matching ]
 *   ]  jump back to the matching [ (a loop)      c call: run the top's
 *   digit-th program recursively                  h halt the process */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { STACK = 64 };

struct machine {
  long stack[STACK];
  int sp;
  int steps;
  int depth;
};

static char **programs;
static int num_programs;

static void push(struct machine *m, long v) {
  if (m->sp == STACK) {
    fprintf(stderr, "stack overflow\n");
    exit(3);
  }
  m->stack[m->sp++] = v;
}

static long pop(struct machine *m) {
  if (m->sp == 0)
    return 0;
  return m->stack[--m->sp];
}

static long op_add(long a, long b) { return a + b; }
static long op_sub(long a, long b) { return a - b; }
static long op_mul(long a, long b) { return a * b; }
static long op_div(long a, long b) {
  if (b == 0)
    return 0;
  return a / b;
}

static long (*const ops[4])(long, long) = {op_add, op_sub, op_mul, op_div};

static int op_index(char c) {
  const char *where = strchr("+-*/", c);
  if (!where)
    return -1;
  return (int)(where - "+-*/");
}

/* The position after the ] matching the [ at code[pc] (or the end). */
static int skip_block(const char *code, int pc) {
  int depth = 0;
  for (;;) {
    char c = code[pc++];
    if (c == '\0')
      return pc - 1;
    if (c == '[')
      ++depth;
    else if (c == ']')
      if (--depth == 0)
        return pc;
  }
}

/* The position of the [ matching the ] at code[pc]. */
static int back_to_open(const char *code, int pc) {
  int depth = 0;
  while (pc > 0) {
    if (code[pc] == ']')
      ++depth;
    else if (code[pc] == '[')
      --depth;
    if (depth == 0)
      return pc;
    --pc;
  }
  return 0;
}

static void run(struct machine *m, const char *code);

static void step(struct machine *m, const char *code, int *pc) {
  char c = code[*pc];
  ++m->steps;
  if (c >= '0' && c <= '9') {
    push(m, c - '0');
    ++*pc;
    return;
  }
  int k = op_index(c);
  if (k >= 0) {
    long b = pop(m);
    long a = pop(m);
    push(m, ops[k](a, b));
    ++*pc;
    return;
  }
  switch (c) {
  case 'd': {
    long a = pop(m);
    push(m, a);
    push(m, a);
    break;
  }
  case 's': {
    long b = pop(m);
    long a = pop(m);
    push(m, b);
    push(m, a);
    break;
  }
  case 'p':
    printf("%ld\n", m->stack[m->sp ? m->sp - 1 : 0]);
    break;
  case '[':
    if (m->sp == 0 || m->stack[m->sp - 1] == 0) {
      pop(m);
      *pc = skip_block(code, *pc);
      return;
    }
    break;
  case ']':
    *pc = back_to_open(code, *pc);
    return;
  case 'c': {
    long which = pop(m);
    if (which >= 0 && which < num_programs && m->depth < 8) {
      ++m->depth;
      run(m, programs[which]);
      --m->depth;
    }
    break;
  }
  case 'h':
    printf("halt after %d steps\n", m->steps);
    fflush(stdout);
    exit(0);
  default:
    break;
  }
  ++*pc;
}

static void run(struct machine *m, const char *code) {
  int pc = 0;
  while (code[pc] != '\0')
    step(m, code, &pc);
}

int main(int argc, char **argv) {
  programs = argv + 1;
  num_programs = argc - 1;
  for (int i = 0; i < num_programs; ++i) {
    struct machine m;
    m.sp = 0;
    m.steps = 0;
    m.depth = 0;
    run(&m, programs[i]);
    printf("program %d: %d steps, stack %d\n", i, m.steps, m.sp);
  }
  return 0;
}
