// A profile written by the runtime (docs/record-formats.md, "Profile").
#pragma once

#include "pathcov/core/KPaths.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace pathcov {

struct ProfileFunction {
  std::string identity;
  std::string checksum;
  uint64_t numPaths = 0;
  uint64_t calls = 0;
  uint64_t resumes = 0; // second returns from setjmp
  uint64_t invalidIds = 0;
  uint64_t dropped = 0;
  std::vector<std::pair<uint64_t, uint64_t>> paths; // (id, count)
};

// Record mode's k=N: one function's k-slab forest (core KPaths.h).
struct ProfileKPaths {
  std::string identity;
  std::string checksum;
  unsigned k = 0;
  uint64_t dropped = 0; // ids the runtime's full arena could not place
  std::vector<KSlabNode> slab;
};

struct Profile {
  std::string file; // where it was read from
  std::string module;
  std::string buildId; // empty: the module has none
  std::string test;    // empty: no test named
  // Runtime trouble: descriptors it could not use (wrong ABI version), and
  // paths it could not record (a table could not be mapped).
  uint64_t invalidDescriptors = 0;
  uint64_t lostPaths = 0;
  std::vector<ProfileFunction> functions;
  std::vector<ProfileKPaths> kPaths; // each of a function in `functions`
};

// Throws InputError naming the file and the problem.
Profile readProfile(const std::string &file);

} // namespace pathcov
