/* Loads history_lib.so (argv[1]) with dlopen, runs lib_work(3) and asks the
 * library for its report (argv[2]). Not instrumented. */
#include <dlfcn.h>
#include <stdio.h>

int main(int argc, char **argv) {
  if (argc < 3)
    return 2;
  void *lib = dlopen(argv[1], RTLD_NOW);
  if (!lib) {
    fprintf(stderr, "%s\n", dlerror());
    return 1;
  }
  int (*work)(int) = (int (*)(int))dlsym(lib, "lib_work");
  int (*report)(const char *) = (int (*)(const char *))dlsym(lib, "lib_report");
  if (!work || !report)
    return 1;
  printf("%d\n", work(3));
  return report(argv[2]) == 0 ? 0 : 1;
}
