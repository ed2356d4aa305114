/* A function generator, as BSD's tree.h has them (RB_GENERATE): a macro
   that defines a whole function, using another macro. */
#define PARENT_OF(n) ((n)->parent)
#define GENERATE_DEPTH(name, type)                                  \
  __attribute__((noinline)) static int name##_depth(type *n) {      \
    int depth = 0;                                                  \
    while (PARENT_OF(n)) {                                          \
      n = PARENT_OF(n);                                             \
      ++depth;                                                      \
    }                                                               \
    if (depth > 3)                                                  \
      return -1;                                                    \
    return depth;                                                   \
  }
