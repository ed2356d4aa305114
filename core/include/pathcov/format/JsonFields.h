// Typed access to the JSON documents pathcov reads. Strict: a count is an
// unsigned integer, never a negative or fractional number converted on the
// way; errors name the value's place in the document ("functions[3].calls").
#pragma once

#include "pathcov/format/InputError.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <limits>
#include <set>
#include <string_view>
#include <type_traits>
#include <utility>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace pathcov {

template <typename T> struct IsVector : std::false_type {};
template <typename U> struct IsVector<std::vector<U>> : std::true_type {};

// `value` as a T: bool, int, uint32_t, uint64_t, std::string,
// std::vector<...>, std::set<std::string>, std::pair<uint64_t, uint64_t>
// (a two-element array), or nlohmann::json (any value, or a reference).
template <typename T> T get(const nlohmann::json &value, const std::string &where) {
  const auto wrong = [&](const char *expected) {
    return InputError(where + ": expected " + expected);
  };
  if constexpr (std::is_same_v<T, const nlohmann::json &> ||
                std::is_same_v<T, nlohmann::json>) {
    return value;
  } else if constexpr (std::is_same_v<T, bool>) {
    if (!value.is_boolean())
      throw wrong("true or false");
    return value.get<bool>();
  } else if constexpr (std::is_same_v<T, std::string>) {
    if (!value.is_string())
      throw wrong("a string");
    return value.get<std::string>();
  } else if constexpr (std::is_same_v<T, int>) {
    if (!value.is_number_integer() || value.get<int64_t>() < INT32_MIN ||
        value.get<int64_t>() > INT32_MAX)
      throw wrong("an integer");
    return value.get<int>();
  } else if constexpr (std::is_same_v<T, uint32_t> ||
                       std::is_same_v<T, uint64_t>) {
    if (!value.is_number_unsigned() ||
        value.get<uint64_t>() > std::numeric_limits<T>::max())
      throw wrong("a non-negative integer");
    return value.get<T>();
  } else if constexpr (std::is_same_v<T, std::pair<uint64_t, uint64_t>>) {
    if (!value.is_array() || value.size() != 2)
      throw wrong("a pair [a, b]");
    return {get<uint64_t>(value[0], where + "[0]"),
            get<uint64_t>(value[1], where + "[1]")};
  } else if constexpr (IsVector<T>::value || std::is_same_v<T, std::set<std::string>>) {
    if (!value.is_array())
      throw wrong("an array");
    T items;
    for (size_t i = 0; i < value.size(); ++i)
      items.insert(items.end(), get<typename T::value_type>(
                                    value[i], where + "[" + std::to_string(i) + "]"));
    return items;
  } else {
    static_assert(!sizeof(T), "no JSON reader for this type");
  }
}

// The place `prefix` in a document, and typed access to its fields.
class JsonPath {
public:
  explicit JsonPath(std::string prefix = "") : prefix_(std::move(prefix)) {}

  std::string name(const std::string &key) const {
    return prefix_.empty() ? key : prefix_ + "." + key;
  }
  JsonPath at(const std::string &key) const { return JsonPath(name(key)); }
  JsonPath index(size_t i) const {
    return JsonPath(prefix_ + "[" + std::to_string(i) + "]");
  }
  const std::string &where() const { return prefix_; }

  // The field `key` of `object`; InputError if missing or of another type.
  template <typename T> T field(const nlohmann::json &object, const char *key) const {
    if (!object.is_object())
      throw InputError((prefix_.empty() ? std::string("the document") : prefix_) +
                       ": expected an object");
    const auto it = object.find(key);
    if (it == object.end())
      throw InputError(name(key) + ": missing");
    return get<T>(*it, name(key));
  }

  // Like field, but `otherwise` when the field is missing or null.
  template <typename T>
  T optionalField(const nlohmann::json &object, const char *key, T otherwise) const {
    const auto it = object.find(key);
    if (it == object.end() || it->is_null())
      return otherwise;
    return get<T>(*it, name(key));
  }

private:
  std::string prefix_;
};

// Checks "format" and that "format_version" has major version `major`.
void checkFormat(const nlohmann::json &doc, const char *format, int major);
// Whether `version` ("2.1") has major version `major`: what checkFormat
// accepts.
bool hasMajorVersion(std::string_view version, int major);

// A nlohmann::json exception's message without its "[json.exception...] "
// prefix, which means nothing to a user.
std::string jsonErrorText(const nlohmann::json::exception &e);

// "parse error at line L, column C: MESSAGE" (at the end of a token that
// ends at offset `end` of `text`, as nlohmann places its syntax errors),
// or, with no text (a stream), "parse error at byte N: MESSAGE" at the
// token's first byte, as grep -b counts.
std::string placedJsonError(const nlohmann::json::exception &e, size_t end,
                            size_t tokenSize, std::string_view text);

// A nlohmann SAX DOM builder (Base) whose every parse error is an
// InputError with its place: nlohmann places its syntax errors, but not a
// number too large for a double (out_of_range 406).
template <class Base> class PlacedJsonParser : public Base {
public:
  template <class... Args>
  explicit PlacedJsonParser(std::string_view text, Args &&...args)
      : Base(std::forward<Args>(args)...), text_(text) {}

  template <class Exception>
  bool parse_error(size_t end, const std::string &token, const Exception &e) {
    if constexpr (std::is_same_v<Exception, nlohmann::json::parse_error>)
      throw InputError(jsonErrorText(e)); // names the line and column
    else
      throw InputError(placedJsonError(e, end, token.size(), text_));
  }

private:
  std::string_view text_;
};

// Parses JSON from an input iterator range as it reads (a file, a pipe).
// Throws InputError with the place.
template <class Input> nlohmann::json parseJsonStream(Input first, Input last) {
  nlohmann::json doc;
  PlacedJsonParser<nlohmann::detail::json_sax_dom_parser<nlohmann::json>> parser(
      std::string_view(), doc);
  nlohmann::json::sax_parse(first, last, &parser);
  return doc;
}

} // namespace pathcov
