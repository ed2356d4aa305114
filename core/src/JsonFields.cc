#include "pathcov/format/JsonFields.h"

namespace pathcov {

void checkFormat(const nlohmann::json &doc, const char *format, int major) {
  const JsonPath top;
  const std::string actual = top.field<std::string>(doc, "format");
  if (actual != format)
    throw InputError("format: \"" + actual + "\" is not \"" + format + "\"");
  const std::string version = top.field<std::string>(doc, "format_version");
  const std::string expected = std::to_string(major) + ".";
  if (version.compare(0, expected.size(), expected) != 0)
    throw InputError("format_version: unsupported version \"" + version +
                     "\" (this pathcov reads " + std::to_string(major) + ".x)");
}

std::string jsonErrorText(const nlohmann::json::exception &e) {
  const std::string what = e.what();
  const size_t idEnd = what.find("] ");
  return idEnd == std::string::npos ? what : what.substr(idEnd + 2);
}

} // namespace pathcov
