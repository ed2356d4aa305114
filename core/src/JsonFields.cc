#include "pathcov/format/JsonFields.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace pathcov {

bool hasMajorVersion(std::string_view version, int major) {
  const std::string expected = std::to_string(major) + ".";
  return version.substr(0, expected.size()) == expected;
}

void checkFormat(const nlohmann::json &doc, const char *format, int major) {
  const JsonPath top;
  const std::string actual = top.field<std::string>(doc, "format");
  if (actual != format)
    throw InputError("format: \"" + actual + "\" is not \"" + format + "\"");
  const std::string version = top.field<std::string>(doc, "format_version");
  if (hasMajorVersion(version, major))
    return;
  const std::string unsupported = "format_version: unsupported version \"" +
                                  version + "\" (this pathcov reads " +
                                  std::to_string(major) + ".x)";
  // Major version 2 changed function identities (docs/record-formats.md):
  // data named the old way must be made again, never matched silently.
  const bool older = !version.empty() && std::isdigit(static_cast<unsigned char>(version[0])) &&
                     std::atoi(version.c_str()) < major;
  throw InputError(older ? unsupported + ": written by an older pathcov, whose "
                                         "function identities differ; rebuild, "
                                         "re-run and re-collect with this version"
                         : unsupported);
}

std::string jsonErrorText(const nlohmann::json::exception &e) {
  const std::string what = e.what();
  const size_t idEnd = what.find("] ");
  return idEnd == std::string::npos ? what : what.substr(idEnd + 2);
}

std::string placedJsonError(const nlohmann::json::exception &e, size_t end,
                            size_t tokenSize, std::string_view text) {
  if (text.empty())
    return "parse error at byte " + std::to_string(end - std::min(end, tokenSize)) +
           ": " + jsonErrorText(e);
  const std::string_view before = text.substr(0, std::min(end, text.size()));
  const size_t lineStart = before.rfind('\n');
  const size_t line = std::count(before.begin(), before.end(), '\n') + 1;
  const size_t column =
      before.size() - (lineStart == std::string_view::npos ? 0 : lineStart + 1);
  return "parse error at line " + std::to_string(line) + ", column " +
         std::to_string(column) + ": " + jsonErrorText(e);
}

} // namespace pathcov
