/* gcov oracle: loops of every kind (for, while, do-while, nested), break,
 * continue, goto out of a nested loop, switch with shared cases, recursion
 * and calls through function pointers. One statement per line, so that most
 * lines lie in one basic block. Usage: loops WORD... (each word is one round
 * of work; the output depends on the words). */
#include <stdio.h>
#include <string.h>

static int collatz_steps(long n) {
  int steps = 0;
  while (n != 1) {
    if (n % 2 == 0)
      n /= 2;
    else
      n = 3 * n + 1;
    ++steps;
  }
  return steps;
}

static int classify(int c) {
  switch (c) {
  case 'a':
  case 'e':
  case 'i':
  case 'o':
  case 'u':
    return 1;
  case ' ':
  case '-':
    return 2;
  default:
    break;
  }
  if (c >= '0')
    if (c <= '9')
      return 3;
  return 0;
}

static void count_chars(const char *s, int counts[4]) {
  for (const char *p = s; *p; ++p) {
    int k = classify((unsigned char)*p);
    if (k == 2)
      continue;
    counts[k]++;
    if (*p == '!')
      break;
  }
}

static int find_pair(const int *v, int n, int target, int *i_out,
                     int *j_out) {
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      if (v[i] + v[j] == target) {
        *i_out = i;
        *j_out = j;
        goto found;
      }
  return 0;
found:
  return 1;
}

static unsigned digit_sum(unsigned x) {
  unsigned s = 0;
  do {
    s += x % 10;
    x /= 10;
  } while (x);
  return s;
}

static void bubble_sort(int *v, int n) {
  int swapped = 1;
  while (swapped) {
    swapped = 0;
    for (int i = 1; i < n; ++i) {
      if (v[i - 1] <= v[i])
        continue;
      int t = v[i];
      v[i] = v[i - 1];
      v[i - 1] = t;
      swapped = 1;
    }
    --n;
  }
}

static int gcd(int a, int b) {
  if (b == 0)
    return a;
  return gcd(b, a % b);
}

static int add(int a, int b) {
  return a + b;
}

static int mul(int a, int b) {
  return a * b;
}

static int fold(int (*op)(int, int), const int *v, int n, int init) {
  int acc = init;
  for (int i = 0; i < n; ++i)
    acc = op(acc, v[i]);
  return acc;
}

int main(int argc, char **argv) {
  int total = 0;
  for (int w = 1; w < argc; ++w) {
    const char *word = argv[w];
    int counts[4] = {0, 0, 0, 0};
    count_chars(word, counts);
    int v[16];
    int n = 0;
    for (const char *p = word; *p; ++p) {
      if (n == 16)
        break;
      v[n++] = (unsigned char)*p % 13;
    }
    bubble_sort(v, n);
    int i = -1;
    int j = -1;
    int found = find_pair(v, n, 12, &i, &j);
    int sum = fold(add, v, n, 0);
    int product = fold(mul, v, n > 3 ? 3 : n, 1);
    int steps = collatz_steps((long)strlen(word) * 7 + 1);
    unsigned ds = digit_sum((unsigned)sum * 37u);
    int g = gcd(sum + 1, product + 1);
    printf("%s: vowels %d other %d digits %d pair %d(%d,%d) sum %d product %d"
           " steps %d digits %u gcd %d\n",
           word, counts[1], counts[0], counts[3], found, i, j, sum, product,
           steps, ds, g);
    total += sum;
  }
  printf("total %d\n", total);
  return total % 2;
}
