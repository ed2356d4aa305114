#include "JsonFields.h"

namespace pathcov {

std::string optionalString(const nlohmann::json &object, const char *key) {
  const auto it = object.find(key);
  if (it == object.end() || it->is_null())
    return "";
  if (!it->is_string())
    throw InputError(std::string(key) + ": wrong type");
  return it->get<std::string>();
}

void checkFormat(const nlohmann::json &doc, const char *format, int major) {
  const std::string actual = field<std::string>(doc, "format");
  if (actual != format)
    throw InputError("format: \"" + actual + "\" is not \"" + format + "\"");
  const std::string version = field<std::string>(doc, "format_version");
  const std::string expected = std::to_string(major) + ".";
  if (version.compare(0, expected.size(), expected) != 0)
    throw InputError("format_version: " + version + " is not " +
                     std::to_string(major) + ".x, which this pathcov reads");
}

} // namespace pathcov
