#include <stdlib.h>
int f(int x) {
  switch (x) {
  case 1:
    return 10;
  case 2:
    x += 3;
    break;
  default:
    x = 0;
  }
  return x;
}
int main(int c, char **v) { return f(atoi(v[1])) > 100; }
