/* Uses up the process's memory mappings (vm.max_map_count), as gnulib's
 * test-free does, then exits normally: its profile must still be written
 * (check_no_mappings_left.py). */
#include <stdio.h>
#include <sys/mman.h>

static int mapped(long n) { return n > 1000; }

int main(void) {
  long n = 0;
  for (;;) {
    /* Alternate protections, so that the kernel merges no two. */
    void *p = mmap(NULL, 4096, n % 2 ? PROT_READ : PROT_READ | PROT_WRITE,
                   MAP_ANONYMOUS | MAP_PRIVATE, -1, 0);
    if (p == MAP_FAILED)
      break;
    n++;
  }
  printf("%d\n", mapped(n));
  return 0;
}
