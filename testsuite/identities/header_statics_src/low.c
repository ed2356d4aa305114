#include "clamp.h"
int low(int v) { return clamp(v, 0, 10); }
