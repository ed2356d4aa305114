#include "Profile.h"

#include "FileIo.h"

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
    return profile;
  } catch (const InputError &e) {
    throw InputError(file + ": " + e.what());
  }
}

} // namespace pathcov
