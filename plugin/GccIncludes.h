// GCC's plugin headers, in the order they must come (shared notes:
// gcc-plugin.h first; tree-ssanames.h must not be included). Files that
// include this may not include other libraries' headers after it: GCC
// poisons malloc and friends.
#pragma once

#include "gcc-plugin.h"
#include "plugin-version.h"
#include "context.h"
#include "backend.h"
#include "tree.h"
#include "gimple.h"
#include "tree-pass.h"
#include "ssa.h"
#include "gimple-iterator.h"
#include "cgraph.h"
#include "cfganal.h"
#include "gimplify.h"
#include "langhooks.h"
#include "stor-layout.h"
#include "fold-const.h"
#include "varasm.h"
#include "output.h"
#include "diagnostic.h"
#include "stringpool.h"
#include "tree-cfg.h"
#include "attribs.h"
#include "target.h"
#include "internal-fn.h"
#include "memmodel.h"
#include "cfgloop.h"
#include "file-prefix-map.h"
#include "toplev.h"
