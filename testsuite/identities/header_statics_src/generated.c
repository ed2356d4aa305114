#include "generated.h" /* in the build directory */
#include <stdlib.h>
int main(int argc, char **argv) { return pick(argc > 1 ? atoi(argv[1]) : 0) == 3 ? 0 : 1; }
