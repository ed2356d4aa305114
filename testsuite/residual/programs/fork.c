/* fork: `fork A B C` runs step(A) before the fork, then the child runs
 * step(B) twice and the parent step(C) three times; the parent waits for
 * the child and prints. Each process writes its own report. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static int step(int x) {
  if (x > 100)
    return x - 100;
  if (x % 2)
    return x * 3 + 1;
  if (x % 4 == 0)
    return x / 4;
  return x / 2;
}

static int in_child(int x) {
  int r = 0;
  for (int i = 0; i < 2; ++i)
    r += step(x + i * 4);
  return r;
}

static int in_parent(int x) {
  int r = 0;
  for (int i = 0; i < 3; ++i)
    r += step(x) * (i + 1);
  return r;
}

int main(int argc, char **argv) {
  if (argc < 4)
    return 2;
  int before = step(atoi(argv[1]));
  fflush(stdout);
  pid_t pid = fork();
  if (pid < 0)
    return 1;
  if (pid == 0)
    exit(in_child(atoi(argv[2])) % 100);
  int after = in_parent(atoi(argv[3]));
  int status = 0;
  if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
    return 1;
  printf("%d %d %d\n", before, after, WEXITSTATUS(status));
  return 0;
}
