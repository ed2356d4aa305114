/* Loads the instrumented library argv[1] twice with dlopen and dlclose; an
 * uninstrumented executable without the runtime. Prints how many profiles
 * of the library exist in argv[2] after each dlclose. */
#include <dirent.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int profiles(const char *dir) {
  char prefix[64];
  snprintf(prefix, sizeof prefix, "pathcov-librt_shlib.so-%ld-",
           (long)getpid());
  DIR *d = opendir(dir);
  int n = 0;
  for (struct dirent *e; d && (e = readdir(d));)
    n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
  if (d)
    closedir(d);
  return n;
}

static int run(const char *lib, int first, int last) {
  void *handle = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    fprintf(stderr, "%s\n", dlerror());
    return 1;
  }
  void (*work)(int) = (void (*)(int))dlsym(handle, "shlib_work");
  if (!work)
    return 1;
  for (int n = first; n <= last; ++n)
    work(n);
  return dlclose(handle);
}

int main(int argc, char **argv) {
  if (argc != 3 || run(argv[1], 5, 5) != 0)
    return 1;
  printf("after first dlclose: %d\n", profiles(argv[2]));
  if (run(argv[1], 6, 7) != 0)
    return 1;
  printf("after second dlclose: %d\n", profiles(argv[2]));
  return 0;
}
