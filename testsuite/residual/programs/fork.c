/* fork: `fork A B C [HOW]` runs step(A) before the fork, then the child runs
 * step(B) twice and the parent step(C) three times; the parent waits for
 * the child and prints. Each process writes its own report.
 *
 * With HOW, the child then replaces itself with /bin/true (its argument:
 * the child's result, which true ignores) through the exec function HOW
 * names, or HOW vfork: forks with vfork and execs with execv; HOW fail:
 * tries a program that does not exist, then runs step(B + 1) twice and
 * exits. The child's paths before the exec must be in its own report
 * (reason exec), and after a failed exec in its exit report, each counted
 * once. HOW _exit: the child runs step(B) twice and leaves by _exit, which
 * runs no destructor: its paths must be in its report all the same. */
#define _GNU_SOURCE /* execvpe */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

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

/* Returns only if the exec failed. */
static void run_true(const char *how, char *arg) {
  char *argv[] = {"true", arg, NULL};
  if (strcmp(how, "execl") == 0)
    execl("/bin/true", "true", arg, (char *)NULL);
  else if (strcmp(how, "execle") == 0)
    execle("/bin/true", "true", arg, (char *)NULL, environ);
  else if (strcmp(how, "execlp") == 0)
    execlp("true", "true", arg, (char *)NULL);
  else if (strcmp(how, "execve") == 0)
    execve("/bin/true", argv, environ);
  else if (strcmp(how, "execvp") == 0)
    execvp("true", argv);
  else if (strcmp(how, "execvpe") == 0)
    execvpe("true", argv, environ);
  else if (strcmp(how, "fexecve") == 0) {
    int fd = open("/bin/true", O_RDONLY | O_CLOEXEC);
    if (fd >= 0)
      fexecve(fd, argv, environ);
  } else if (strcmp(how, "fail") == 0)
    execv("/nonexistent/pathcov-exec-test", argv);
  else
    execv("/bin/true", argv);
}

int main(int argc, char **argv) {
  if (argc < 4)
    return 2;
  const char *how = argc > 4 ? argv[4] : NULL;
  int b = atoi(argv[2]);
  int before = step(atoi(argv[1]));
  fflush(stdout);
  pid_t pid = how && strcmp(how, "vfork") == 0 ? vfork() : fork();
  if (pid < 0)
    return 1;
  if (pid == 0 && !how)
    exit(in_child(b) % 100);
  if (pid == 0 && strcmp(how, "_exit") == 0)
    _exit(in_child(b) % 100);
  if (pid == 0) {
    char arg[16];
    snprintf(arg, sizeof arg, "%d", in_child(b));
    run_true(how, arg);
    if (strcmp(how, "fail") != 0)
      _exit(127); /* an exec that should have worked */
    exit(in_child(b + 1) % 100);
  }
  int after = in_parent(atoi(argv[3]));
  int status = 0;
  if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
    return 1;
  printf("%d %d %d\n", before, after, WEXITSTATUS(status));
  return 0;
}
