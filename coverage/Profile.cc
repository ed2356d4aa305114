#include "Profile.h"

#include "FileIo.h"
#include "JsonFields.h"

#include "pathcov/format/InputError.h"

namespace pathcov {

Profile readProfile(const std::string &file) {
  const nlohmann::json doc = readJsonFile(file);
  try {
    checkFormat(doc, "pathcov-profile", 1);
    Profile profile;
    profile.file = file;
    profile.module = field<std::string>(doc, "module");
    profile.buildId = optionalString(doc, "build_id");
    profile.test = optionalString(doc, "test");
    profile.invalidDescriptors = doc.value("invalid_descriptors", uint64_t(0));
    profile.lostPaths = doc.value("lost_paths", uint64_t(0));
    const nlohmann::json &functions = field<const nlohmann::json &>(doc, "functions");
    for (size_t i = 0; i < functions.size(); ++i) {
      const nlohmann::json &f = functions[i];
      const JsonPath at("functions[" + std::to_string(i) + "]");
      ProfileFunction function;
      function.identity = at.field<std::string>(f, "identity");
      function.checksum = at.field<std::string>(f, "checksum");
      function.numPaths = at.field<uint64_t>(f, "num_paths");
      function.calls = at.field<uint64_t>(f, "calls");
      function.invalidIds = f.value("invalid_ids", uint64_t(0));
      function.dropped = f.value("dropped", uint64_t(0));
      function.paths =
          at.field<std::vector<std::pair<uint64_t, uint64_t>>>(f, "paths");
      for (const auto &[id, count] : function.paths)
        if (id >= function.numPaths)
          throw InputError(at.name("paths") + ": path id " +
                           std::to_string(id) + " is not below num_paths " +
                           std::to_string(function.numPaths));
      profile.functions.push_back(std::move(function));
    }
    return profile;
  } catch (const InputError &e) {
    throw InputError(file + ": " + e.what());
  }
}

} // namespace pathcov
