// Typed access to the fields of the JSON documents pathcov reads, with
// errors that name the field's place in the document.
#pragma once

#include "pathcov/format/InputError.h"

#include <nlohmann/json.hpp>

#include <string>

namespace pathcov {

class JsonPath {
public:
  explicit JsonPath(std::string prefix = "") : prefix_(std::move(prefix)) {}

  std::string name(const char *key) const {
    return prefix_.empty() ? key : prefix_ + "." + key;
  }

  // The field `key` of `object` as a T; InputError if missing or mistyped.
  template <typename T> T field(const nlohmann::json &object, const char *key) const {
    if (!object.is_object())
      throw InputError((prefix_.empty() ? "document" : prefix_) +
                       ": not a JSON object");
    const auto it = object.find(key);
    if (it == object.end())
      throw InputError(name(key) + ": missing");
    try {
      if constexpr (std::is_same_v<T, const nlohmann::json &>)
        return *it;
      else
        return it->template get<T>();
    } catch (const nlohmann::json::exception &) {
      throw InputError(name(key) + ": wrong type");
    }
  }

private:
  std::string prefix_;
};

template <typename T> T field(const nlohmann::json &object, const char *key) {
  return JsonPath().field<T>(object, key);
}

// A string field that may be missing or null: "" then.
std::string optionalString(const nlohmann::json &object, const char *key);

// Checks "format" and that "format_version" has major version `major`.
void checkFormat(const nlohmann::json &doc, const char *format, int major);

} // namespace pathcov
