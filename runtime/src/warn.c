/* pathcov_warn, which both modes' runtimes use: formatting with stdio,
 * it is for start-up and API calls, not for signal handlers
 * (pathcov_warn_in_signal). */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

void pathcov_warn(const char *format, ...) {
  static const char prefix[] = "pathcov: ";
  char line[2 * PATH_MAX];
  memcpy(line, prefix, sizeof prefix - 1);
  size_t room = sizeof line - (sizeof prefix - 1) - 1; /* keep 1 for '\n' */
  va_list ap;
  va_start(ap, format);
  int n = vsnprintf(line + sizeof prefix - 1, room, format, ap);
  va_end(ap);
  if (n < 0)
    return;
  size_t len = sizeof prefix - 1 + ((size_t)n < room ? (size_t)n : room - 1);
  line[len++] = '\n';
  pathcov_diagnostic(line, len);
}
