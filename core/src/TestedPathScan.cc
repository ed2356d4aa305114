#include "TestedPathScan.h"

#include "pathcov/core/Checked.h"
#include "pathcov/format/FunctionMetadata.h"
#include "pathcov/format/JsonFields.h"

#include <simdjson.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <system_error>

namespace pathcov {

namespace {

namespace ondemand = simdjson::ondemand;
using simdjson::error_code;
using simdjson::SUCCESS;

// Not a plain corpus: the reference reader decides what it is.
constexpr error_code kNotPlain = simdjson::INCORRECT_TYPE;

#define PATHCOV_TRY(expr)                                                      \
  do {                                                                         \
    if (const error_code e_ = (expr); e_ != SUCCESS)                           \
      return e_;                                                               \
  } while (0)

using IdCounts = std::vector<std::pair<uint64_t, uint64_t>>;

// A key as written where it has no escape, as almost every key: unescaping
// copies it into simdjson's string buffer, memory a gigabyte corpus pays
// for. Stage 1 has checked its bytes; a key with an escape is unescaped,
// which checks the escape.
error_code keyOf(ondemand::field &field, std::string_view &key) {
  const char *start = field.key().raw();
  const char *end = start;
  while (*end != '"' && *end != '\\')
    ++end;
  if (*end == '"') {
    key = std::string_view(start, static_cast<size_t>(end - start));
    return SUCCESS;
  }
  return field.unescaped_key().get(key);
}

// visit(key, value) for each field of `object`, in order, until an error.
template <typename Visit> error_code forEachField(ondemand::object &object, Visit visit) {
  for (auto entry : object) {
    ondemand::field field;
    PATHCOV_TRY(std::move(entry).get(field));
    std::string_view key;
    PATHCOV_TRY(keyOf(field, key));
    PATHCOV_TRY(visit(key, field.value()));
  }
  return SUCCESS;
}

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Where the scan for a value's end stands, resumed when more of a
// streamed corpus comes: a long function is scanned once, not once a read.
struct ValueScan {
  size_t scanned = 0; // bytes of the value looked at
  size_t depth = 0;   // brackets open
  bool inString = false, escaped = false;
};

// The end of the value that starts at `at`, or npos when `text` ends first
// (`scan` then says how far it got; pass it again with the same value at
// `at` and more text after): brackets counted outside strings, a scalar up
// to the next delimiter (a scalar at the end of a corpus is not plain
// anyway: the corpus is an object). What lies between is simdjson's to
// check.
size_t valueEnd(std::string_view text, size_t at, ValueScan &scan) {
  if (at >= text.size())
    return std::string_view::npos;
  const char first = text[at];
  const bool scalar = first != '"' && first != '{' && first != '[';
  size_t i = at + scan.scanned;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (scalar) {
      if (isSpace(c) || c == ',' || c == ']' || c == '}')
        return i;
    } else if (scan.inString) {
      if (scan.escaped) {
        scan.escaped = false;
      } else if (c == '\\') {
        scan.escaped = true;
      } else if (c == '"') {
        scan.inString = false;
        if (scan.depth == 0)
          return i + 1;
      }
    } else if (c == '"') {
      scan.inString = true;
    } else if (c == '{' || c == '[') {
      ++scan.depth;
    } else if ((c == '}' || c == ']') && --scan.depth == 0) {
      return i + 1;
    }
  }
  scan.scanned = i - at;
  return std::string_view::npos;
}

// Reads a corpus piece by piece: the top object's members, and each
// element of an array member, are each parsed by simdjson as a document of
// their own; the punctuation between them is checked here. simdjson's
// structural index takes 4 bytes a structural character of a document:
// the whole of a gigabyte corpus at once cost more memory than the text.
// Streamed, only the piece being read is held.
class Scanner {
public:
  // The corpus read as its pieces need it, at least `block` bytes a read.
  Scanner(const ReadSome &readSome, size_t block, TestedPathIndex &index)
      : readSome_(readSome), block_(std::max<size_t>(block, 1)), index_(index) {}

  // errno of the read that failed, or 0.
  int readError() const { return readError_; }

  // {"format": ..., "format_version": ..., "functions": [...], ...}: each
  // of the three once, any other member checked and dropped.
  error_code document() {
    PATHCOV_TRY(expect('{'));
    bool format = false, version = false, functions = false;
    if (!next('}')) {
      do {
        std::string key;
        PATHCOV_TRY(memberKey(key));
        if (key == "format") {
          PATHCOV_TRY(once(format));
          PATHCOV_TRY(piece([](ondemand::value &value) {
            std::string_view text;
            PATHCOV_TRY(value.get_string().get(text));
            return text == kCorpusFormat ? SUCCESS : kNotPlain;
          }));
        } else if (key == "format_version") {
          PATHCOV_TRY(once(version));
          PATHCOV_TRY(piece([](ondemand::value &value) {
            std::string_view text;
            PATHCOV_TRY(value.get_string().get(text));
            return hasMajorVersion(text, kCorpusMajorVersion) ? SUCCESS : kNotPlain;
          }));
        } else if (key == "functions") {
          PATHCOV_TRY(once(functions));
          PATHCOV_TRY(elements([this](ondemand::value &value) { return function(value); }));
        } else if (at('[')) {
          PATHCOV_TRY(elements([](ondemand::value &value) { return validate(value); }));
        } else {
          PATHCOV_TRY(piece([](ondemand::value &value) { return validate(value); }));
        }
      } while (next(','));
      PATHCOV_TRY(expect('}'));
    }
    skipSpace();
    if (!format || !version || !functions || pos_ != text_.size())
      return kNotPlain;
    return SUCCESS;
  }

private:
  // Reads more of the corpus after what is left from pos_ on, dropping
  // what lies before pos_ (the text moves to the buffer's start: an index
  // past pos_ goes down by `shift`). False at the corpus's end or on a read
  // error. The buffer doubles when what is left fills half of it, so that
  // a long piece is copied only as often as its length doubles; simdjson's
  // padding follows the room to read into.
  bool more(size_t &shift) {
    if (ended_)
      return false;
    shift = pos_;
    const size_t left = text_.size() - pos_;
    if (pos_ != 0) // within a long piece there is nothing to drop
      std::memmove(buffer_.data(), buffer_.data() + pos_, left);
    const size_t room = std::max(block_, 2 * left);
    if (buffer_.size() < room + simdjson::SIMDJSON_PADDING)
      buffer_.resize(room + simdjson::SIMDJSON_PADDING);
    ssize_t got;
    do
      got = readSome_(buffer_.data() + left, room - left);
    while (got < 0 && errno == EINTR);
    if (got < 0)
      readError_ = errno;
    ended_ = got <= 0;
    pos_ = 0;
    text_ = std::string_view(buffer_.data(), left + (got > 0 ? size_t(got) : 0));
    return got > 0;
  }
  bool more() {
    size_t shift;
    return more(shift);
  }

  void skipSpace() {
    do
      while (pos_ < text_.size() && isSpace(text_[pos_]))
        ++pos_;
    while (pos_ == text_.size() && more());
  }

  bool at(char c) {
    skipSpace();
    return pos_ < text_.size() && text_[pos_] == c;
  }

  bool next(char c) {
    if (!at(c))
      return false;
    ++pos_;
    return true;
  }

  error_code expect(char c) { return next(c) ? SUCCESS : kNotPlain; }

  // A member's key and colon. Printable ASCII without escapes: every byte
  // outside the pieces is checked here. A copy: reading on moves the text.
  error_code memberKey(std::string &key) {
    PATHCOV_TRY(expect('"'));
    size_t end = pos_, shift = 0;
    for (;; ++end) {
      if (end == text_.size()) {
        if (!more(shift))
          return kNotPlain;
        end -= shift;
      }
      const char c = text_[end];
      if (c == '"')
        break;
      if (c < 0x20 || c > 0x7e || c == '\\')
        return kNotPlain;
    }
    key.assign(text_.substr(pos_, end - pos_));
    pos_ = end + 1;
    return expect(':');
  }

  // The value at the current place, as a document of its own: visit(its
  // root), then nothing may be left of it.
  template <typename Visit> error_code piece(Visit visit) {
    skipSpace();
    ValueScan scan;
    size_t end = valueEnd(text_, pos_, scan);
    while (end == std::string_view::npos && more())
      end = valueEnd(text_, pos_, scan);
    if (end == std::string_view::npos || end == pos_)
      return kNotPlain; // unterminated, or no value
    const size_t start = pos_;
    const std::string_view json = text_.substr(start, end - start);
    pos_ = end;
    ondemand::document doc;
    if (json[0] == '{' || json[0] == '[') {
      PATHCOV_TRY(parser_
                      .iterate(simdjson::padded_string_view(json.data(), json.size(),
                                                            buffer_.size() - start))
                      .get(doc));
      ondemand::value root;
      PATHCOV_TRY(doc.get_value().get(root));
      PATHCOV_TRY(visit(root));
      // Nothing may follow the value.
      return doc.current_location().error() == simdjson::OUT_OF_BOUNDS ? SUCCESS
                                                                       : kNotPlain;
    }
    // A scalar, in an array: simdjson checks a document's root scalar less
    // (`null.` passed for null), and a member's scalars are short.
    const simdjson::padded_string wrapped("[" + std::string(json) + "]");
    ondemand::array list;
    PATHCOV_TRY(parser_.iterate(wrapped).get(doc));
    PATHCOV_TRY(doc.get_array().get(list));
    size_t count = 0;
    for (auto element : list) {
      ondemand::value value;
      PATHCOV_TRY(element.get(value));
      PATHCOV_TRY(visit(value));
      ++count;
    }
    return count == 1 && doc.current_location().error() == simdjson::OUT_OF_BOUNDS
               ? SUCCESS
               : kNotPlain;
  }

  // An array's elements, each a piece.
  template <typename Visit> error_code elements(Visit visit) {
    PATHCOV_TRY(expect('['));
    if (next(']'))
      return SUCCESS;
    do
      PATHCOV_TRY(piece(visit));
    while (next(','));
    return expect(']');
  }

  static error_code once(bool &seen) {
    if (seen)
      return kNotPlain;
    seen = true;
    return SUCCESS;
  }

  static error_code string(ondemand::value value, bool &seen, std::string &out) {
    PATHCOV_TRY(once(seen));
    std::string_view text;
    PATHCOV_TRY(value.get_string().get(text));
    out.assign(text);
    return SUCCESS;
  }

  // A function: the keys addTestedFunction (Corpus.cc) reads, each once.
  error_code function(ondemand::value &value) {
    ondemand::object f;
    PATHCOV_TRY(value.get_object().get(f));
    std::string identity, file, checksum, skipped, optimization;
    bool hasIdentity = false, hasFile = false, hasChecksum = false,
         hasSkipped = false, hasOptimization = false, hasPaths = false,
         hasFieldPaths = false;
    idCounts_.clear();
    PATHCOV_TRY(forEachField(f, [&](std::string_view key, ondemand::value v) {
      if (key == "identity")
        return string(v, hasIdentity, identity);
      if (key == "file")
        return string(v, hasFile, file);
      if (key == "checksum")
        return string(v, hasChecksum, checksum);
      if (key == "skipped")
        return string(v, hasSkipped, skipped);
      if (key == "optimization")
        return string(v, hasOptimization, optimization);
      if (key == "paths" || key == "field_paths") {
        PATHCOV_TRY(once(key == "paths" ? hasPaths : hasFieldPaths));
        return pathList(v);
      }
      return validate(v);
    }));
    if (!skipped.empty())
      return SUCCESS; // uninstrumented: no paths to check
    if (!hasIdentity || !hasChecksum || !hasPaths)
      return kNotPlain;
    TestedPaths tested{std::move(checksum), {}, {}, std::move(optimization)};
    setTestedPathCounts(tested, idCounts_);
    addTestedPaths(index_, identity, file, std::move(tested));
    return SUCCESS;
  }

  // [{"id": N, "count": N, ...}, ...]: count optional, 0.
  error_code pathList(ondemand::value value) {
    ondemand::array list;
    PATHCOV_TRY(value.get_array().get(list));
    for (auto element : list) {
      ondemand::object path;
      PATHCOV_TRY(element.get_object().get(path));
      uint64_t id = 0, count = 0;
      bool hasId = false, hasCount = false;
      PATHCOV_TRY(forEachField(path, [&](std::string_view key, ondemand::value v) {
        if (key == "id") {
          PATHCOV_TRY(once(hasId));
          return v.get_uint64().get(id);
        }
        if (key == "count") {
          PATHCOV_TRY(once(hasCount));
          return v.get_uint64().get(count);
        }
        return validate(v);
      }));
      if (!hasId)
        return kNotPlain;
      idCounts_.emplace_back(id, count);
    }
    return SUCCESS;
  }

  // A value nothing reads, read all the same: On-Demand would otherwise
  // skip it unchecked, and a corpus the reference reader refuses must not
  // pass here.
  static error_code validate(ondemand::value &value) {
    ondemand::json_type type;
    PATHCOV_TRY(value.type().get(type));
    switch (type) {
    case ondemand::json_type::array: {
      ondemand::array list;
      PATHCOV_TRY(value.get_array().get(list));
      for (auto element : list) {
        ondemand::value v;
        PATHCOV_TRY(element.get(v));
        PATHCOV_TRY(validate(v));
      }
      return SUCCESS;
    }
    case ondemand::json_type::object: {
      ondemand::object object;
      PATHCOV_TRY(value.get_object().get(object));
      return forEachField(object, [](std::string_view, ondemand::value v) {
        return validate(v);
      });
    }
    case ondemand::json_type::number: {
      ondemand::number number;
      return value.get_number().get(number);
    }
    case ondemand::json_type::string: {
      // As for keys: only a string with an escape is unescaped. Either way
      // it is consumed: On-Demand checks what follows a value only then.
      if (value.raw_json_token().find('\\') == std::string_view::npos) {
        ondemand::raw_json_string raw;
        return value.get_raw_json_string().get(raw);
      }
      std::string_view text;
      return value.get_string().get(text);
    }
    case ondemand::json_type::boolean: {
      bool b;
      return value.get_bool().get(b);
    }
    case ondemand::json_type::null: {
      bool isNull;
      PATHCOV_TRY(value.is_null().get(isNull));
      return isNull ? SUCCESS : kNotPlain;
    }
    }
    return kNotPlain;
  }

  const ReadSome &readSome_;
  const size_t block_; // what more() asks for at least
  std::string buffer_;
  bool ended_ = false;
  int readError_ = 0;

  std::string_view text_; // what was read and is left in buffer_
  size_t pos_ = 0;
  ondemand::parser parser_;
  TestedPathIndex &index_;
  IdCounts idCounts_; // the current function's
};

#undef PATHCOV_TRY

} // namespace

ReadSome readingFrom(std::string_view text, size_t step) {
  return [text, step, at = size_t{0}](char *into, size_t room) mutable {
    const size_t n = std::min({room, step, text.size() - at});
    std::memcpy(into, text.data() + at, n);
    at += n;
    return static_cast<ssize_t>(n);
  };
}

std::optional<TestedPathIndex> scanTestedPaths(std::string_view json) {
  return scanTestedPaths(readingFrom(json), json.size() + 1);
}

std::optional<TestedPathIndex> scanTestedPaths(const ReadSome &readSome,
                                               size_t block) {
  TestedPathIndex index;
  Scanner scanner(readSome, block, index);
  const bool plain = scanner.document() == SUCCESS;
  if (scanner.readError() != 0)
    throw std::system_error(scanner.readError(), std::generic_category());
  if (!plain)
    return std::nullopt;
  return index;
}

void setTestedPathCounts(TestedPaths &tested, IdCounts &idCounts) {
  std::sort(idCounts.begin(), idCounts.end());
  tested.ids.clear();
  tested.counts.clear();
  for (const auto &[id, count] : idCounts) {
    if (!tested.ids.empty() && tested.ids.back() == id) {
      tested.counts.back() = saturatingAdd(tested.counts.back(), count);
      continue;
    }
    tested.ids.push_back(id);
    tested.counts.push_back(count);
  }
}

namespace {

void addVersion(std::vector<TestedPaths> &versions, TestedPaths tested) {
  const auto same = std::find_if(versions.begin(), versions.end(),
                                 [&](const TestedPaths &v) {
                                   return v.checksum == tested.checksum;
                                 });
  if (same == versions.end()) {
    versions.push_back(std::move(tested));
    return;
  }
  IdCounts idCounts;
  for (const TestedPaths *v : {&*same, &tested})
    for (size_t k = 0; k < v->ids.size(); ++k)
      idCounts.emplace_back(v->ids[k], v->counts[k]);
  setTestedPathCounts(*same, idCounts);
}

} // namespace

void addTestedPaths(TestedPathIndex &index, const std::string &identity,
                    const std::string &file, TestedPaths tested) {
  const std::string header = headerIdentityOf(identity, file);
  if (!header.empty())
    addVersion(index[header], tested);
  addVersion(index[identity], std::move(tested));
}

} // namespace pathcov
