#include "Profile.h"

#include "FileIo.h"

#include <algorithm>
#include <limits>

#include "pathcov/format/InputError.h"
#include "pathcov/format/JsonFields.h"

namespace pathcov {

namespace {

// [[id, count], ...]: ids ascending, each once, below numPaths; counts >= 1.
std::vector<std::pair<uint64_t, uint64_t>>
readPaths(const JsonPath &at, const nlohmann::json &f, uint64_t numPaths) {
  const auto paths =
      at.field<std::vector<std::pair<uint64_t, uint64_t>>>(f, "paths");
  for (size_t i = 0; i < paths.size(); ++i) {
    const std::string where = at.name("paths") + "[" + std::to_string(i) + "]";
    const auto [id, count] = paths[i];
    if (id >= numPaths)
      throw InputError(where + ": path id " + std::to_string(id) +
                       " is not below num_paths " + std::to_string(numPaths));
    if (i > 0 && id <= paths[i - 1].first)
      throw InputError(where + ": path ids must ascend, each once");
    if (count == 0)
      throw InputError(where + ": a listed path has a count of at least 1");
  }
  return paths;
}

// A "k_paths" entry: a function of the profile's, its k, and a
// well-formed forest (KPaths.h) of its ids.
ProfileKPaths readKPaths(const JsonPath &at, const nlohmann::json &e,
                         const std::vector<ProfileFunction> &functions) {
  ProfileKPaths kp;
  kp.identity = at.field<std::string>(e, "identity");
  kp.checksum = at.field<std::string>(e, "checksum");
  const uint64_t k = at.field<uint64_t>(e, "k");
  if (k < 2 || k > kKPathMax)
    throw InputError(at.name("k") + ": expected 2 to " +
                     std::to_string(kKPathMax) + ", not " + std::to_string(k));
  kp.k = unsigned(k);
  kp.dropped = at.optionalField<uint64_t>(e, "dropped", 0);
  const auto function = std::find_if(
      functions.begin(), functions.end(), [&](const ProfileFunction &f) {
        return f.identity == kp.identity && f.checksum == kp.checksum;
      });
  if (function == functions.end())
    throw InputError(at.where() + ": function " + kp.identity + " (checksum " +
                     kp.checksum + ") is not in the profile's functions");
  const nlohmann::json &slab = at.field<const nlohmann::json &>(e, "slab");
  if (!slab.is_array())
    throw InputError(at.name("slab") + ": expected an array");
  for (size_t i = 0; i < slab.size(); ++i) {
    const std::string where = at.name("slab") + "[" + std::to_string(i) + "]";
    const nlohmann::json &node = slab[i];
    // [parent, id, count]: parent -1 for a root. A parent the parser read
    // as unsigned and above INT64_MAX is refused, not converted:
    // 18446744073709551615 would otherwise pass for -1.
    if (!node.is_array() || node.size() != 3 || !node[0].is_number_integer() ||
        (node[0].is_number_unsigned()
             ? node[0].get<uint64_t>() >
                   static_cast<uint64_t>(std::numeric_limits<int64_t>::max())
             : node[0].get<int64_t>() < -1))
      throw InputError(where + ": expected [parent (-1 for a root), id, count]");
    kp.slab.push_back({node[0].get<int64_t>(), get<uint64_t>(node[1], where + "[1]"),
                       get<uint64_t>(node[2], where + "[2]")});
  }
  if (const std::string problem =
          checkKSlabForest(kp.slab, kp.k, function->numPaths);
      !problem.empty())
    throw InputError(at.name("slab") + ": " + problem);
  return kp;
}

} // namespace

Profile readProfile(const std::string &file) {
  const nlohmann::json doc = readJsonFile(file);
  try {
    checkFormat(doc, "pathcov-profile", 2);
    const JsonPath top;
    Profile profile;
    profile.file = file;
    profile.module = top.field<std::string>(doc, "module");
    profile.buildId = top.optionalField<std::string>(doc, "build_id", "");
    profile.test = top.optionalField<std::string>(doc, "test", "");
    top.field<uint64_t>(doc, "pid");
    top.field<std::string>(doc, "reason");
    profile.invalidDescriptors =
        top.optionalField<uint64_t>(doc, "invalid_descriptors", 0);
    profile.lostPaths = top.optionalField<uint64_t>(doc, "lost_paths", 0);
    const nlohmann::json &functions =
        top.field<const nlohmann::json &>(doc, "functions");
    if (!functions.is_array())
      throw InputError("functions: expected an array");
    for (size_t i = 0; i < functions.size(); ++i) {
      const nlohmann::json &f = functions[i];
      const JsonPath at = top.at("functions").index(i);
      ProfileFunction function;
      function.identity = at.field<std::string>(f, "identity");
      function.checksum = at.field<std::string>(f, "checksum");
      function.numPaths = at.field<uint64_t>(f, "num_paths");
      function.calls = at.field<uint64_t>(f, "calls");
      function.resumes = at.optionalField<uint64_t>(f, "resumes", 0);
      function.invalidIds = at.optionalField<uint64_t>(f, "invalid_ids", 0);
      function.dropped = at.optionalField<uint64_t>(f, "dropped", 0);
      function.paths = readPaths(at, f, function.numPaths);
      profile.functions.push_back(std::move(function));
    }
    const nlohmann::json kPaths =
        top.optionalField<nlohmann::json>(doc, "k_paths", nlohmann::json::array());
    if (!kPaths.is_array())
      throw InputError("k_paths: expected an array");
    for (size_t i = 0; i < kPaths.size(); ++i)
      profile.kPaths.push_back(
          readKPaths(top.at("k_paths").index(i), kPaths[i], profile.functions));
    return profile;
  } catch (const InputError &e) {
    throw InputError(file + ": " + e.what());
  }
}

} // namespace pathcov
