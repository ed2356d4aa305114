/* high.c with clamp's other version (CLAMP_CHECKED): this unit's copy of
   the header's static function has another CFG (header_statics.py). */
#define CLAMP_CHECKED
#include "high.c"
