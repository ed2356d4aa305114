#include <stdlib.h>
int count(int n) {
  int s = 0;
  for (int i = 0; i < n; i++) {
    if (i % 3 == 0)
      s += i;
    else
      s -= 1;
  }
  return s;
}
int main(int c, char **v) { return count(atoi(v[1])) > 100; }
