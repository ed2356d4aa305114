/* An interpreter loop (issue 10): every opcode's case ends its iteration at
 * the one back edge, so all its routes meet before the path end. Residual
 * mode checks only the routes some untested path takes: an opcode the
 * tests ran every way through (`+`, `*`, `c` both ways, each as the first
 * opcode too) ends its iteration with no check at all; `p` and `d` keep
 * theirs. `interp PROGRAM...` runs each PROGRAM, one opcode a character:
 * `+` add one, `*` double, `c` clamp (over 100: 0, else +1), `p` print
 * when negative, `d` halve when even (else subtract one), `-` negate, `q`
 * stop. Field runs take untested routes through `p` and `d`, as the first
 * opcode and in later iterations, and untested opcodes (`-`, `q`, and any
 * other character): the residual set must be exact. */
#include <stdio.h>

static long run(const char *program) {
  long acc = 0;
  for (const char *op = program; *op; ++op) {
    switch (*op) {
    case '+':
      acc += 1;
      break;
    case '*':
      acc *= 2;
      break;
    case 'c':
      if (acc > 100)
        acc = 0;
      else
        acc += 1;
      break;
    case 'p':
      if (acc < 0)
        printf("negative %ld\n", acc);
      break;
    case 'd':
      if (acc % 2 == 0)
        acc /= 2;
      else
        acc -= 1;
      break;
    case '-':
      acc = -acc;
      break;
    case 'q':
      return acc;
    default:
      return -1000;
    }
  }
  return acc;
}

int main(int argc, char **argv) {
  for (int i = 1; i < argc; ++i)
    printf("%s: %ld\n", argv[i], run(argv[i]));
  return 0;
}
