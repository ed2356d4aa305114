/* Switches: `switch WORD...` runs each character of each word through a
 * dense switch with fallthrough, a sparse one, and a loop whose switch
 * breaks out of the switch or continues the loop. */
#include <stdio.h>

static int dense(int x) {
  int r = 0;
  switch (x) {
  case 0:
    r += 1;
    /* fallthrough */
  case 1:
  case 2:
    r += 2;
    break;
  case 3:
    r += 3;
    /* fallthrough */
  case 4:
    r *= 2;
    /* fallthrough */
  case 5:
    r += 5;
    break;
  case 6:
    return 60;
  default:
    r = -1;
  }
  return r;
}

static int sparse(int x) {
  int r = x;
  switch (x) {
  case 7:
    r = 70;
    break;
  case 700:
    r = 7000;
    break;
  case 70000:
    return 7;
  }
  return r + 1;
}

static int scan(const char *s) {
  int letters = 0, digits = 0;
  for (; *s; ++s) {
    switch (*s) {
    case 'a':
    case 'e':
    case 'i':
      letters += 2;
      break;
    case '0':
    case '1':
      digits += 1;
      continue;
    case '-':
      return -1;
    default:
      if (*s >= '0' && *s <= '9')
        digits += 3;
      else
        letters += 1;
    }
    letters += 10;
  }
  return letters * 100 + digits;
}

int main(int argc, char **argv) {
  long sum = 0;
  for (int i = 1; i < argc; ++i) {
    for (const char *c = argv[i]; *c; ++c)
      sum = sum * 3 + dense(*c - '0') + sparse(*c == 'x' ? 700 : *c - '0');
    sum += scan(argv[i]);
  }
  printf("%ld\n", sum);
  return 0;
}
