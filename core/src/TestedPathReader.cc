// readTestedPaths: a corpus's tested ids, read with nlohmann's SAX
// interface. A corpus is mostly function metadata (blocks, edges, lines) a
// residual build does not need; as a DOM a 27 MB corpus took 1.2 GB. This
// reader keeps only the fields it needs, skipping the rest as it streams
// by, and reports the problems the DOM reader reported, with the same
// precedence: JSON syntax, then format and version, then the first bad
// function. As in a DOM, a key given twice counts with its last value.
#include "pathcov/format/Corpus.h"

#include "pathcov/format/JsonFields.h"

#include <algorithm>
#include <optional>

namespace pathcov {

namespace {

// One value of the document as far as the reader is concerned.
struct Scalar {
  enum Kind { Missing, Null, String, Unsigned, Other } kind = Missing;
  std::string text;
  uint64_t number = 0;
};

std::string requireString(const Scalar &value, const std::string &where) {
  if (value.kind == Scalar::Missing)
    throw InputError(where + ": missing");
  if (value.kind != Scalar::String)
    throw InputError(where + ": expected a string");
  return value.text;
}

// A function's `paths` or `field_paths`: the ids, or the first problem.
struct IdList {
  enum Kind { Missing, Null, Array, Other } kind = Missing;
  std::vector<uint64_t> ids;
  std::string problem;
  size_t elements = 0;
};

struct FunctionFields {
  bool isObject = false;
  Scalar skipped, checksum, identity;
  IdList paths, fieldPaths;
};

class TestedPathHandler {
public:
  using json = nlohmann::json;

  explicit TestedPathHandler(std::string_view bytes) : bytes_(bytes) {}

  bool null() { return scalar(Scalar{Scalar::Null, {}, 0}); }
  bool boolean(bool) { return scalar(Scalar{Scalar::Other, {}, 0}); }
  bool number_integer(json::number_integer_t) {
    return scalar(Scalar{Scalar::Other, {}, 0});
  }
  bool number_unsigned(json::number_unsigned_t value) {
    return scalar(Scalar{Scalar::Unsigned, {}, value});
  }
  bool number_float(json::number_float_t, const json::string_t &) {
    return scalar(Scalar{Scalar::Other, {}, 0});
  }
  bool string(json::string_t &value) {
    return scalar(Scalar{Scalar::String, std::move(value), 0});
  }
  bool binary(json::binary_t &) { return scalar(Scalar{Scalar::Other, {}, 0}); }

  bool key(json::string_t &name) {
    if (skipDepth_ == 0)
      key_ = std::move(name);
    return true;
  }

  bool start_object(size_t) { return open(true); }
  bool start_array(size_t) { return open(false); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

  bool parse_error(size_t position, const std::string &,
                   const nlohmann::detail::exception &e) {
    // nlohmann places its syntax errors; a number too large for a double
    // (406) it does not, so place it the same way.
    if (e.id != 406) {
      syntaxError_ = jsonErrorText(e);
      return false;
    }
    const std::string_view before = bytes_.substr(0, std::min(position, bytes_.size()));
    const size_t line = std::count(before.begin(), before.end(), '\n') + 1;
    const size_t lineStart = before.rfind('\n');
    const size_t column =
        before.size() - (lineStart == std::string_view::npos ? 0 : lineStart + 1);
    syntaxError_ = "parse error at line " + std::to_string(line) + ", column " +
                   std::to_string(column) + ": " + jsonErrorText(e);
    return false;
  }

  // After sax_parse: the index, or InputError with the problem.
  TestedPathIndex result() {
    if (!syntaxError_.empty())
      throw InputError(syntaxError_);
    if (!rootIsObject_)
      throw InputError("the document: expected an object");
    const std::string format = requireString(format_, "format");
    if (format != "pathcov-corpus")
      throw InputError("format: \"" + format + "\" is not \"pathcov-corpus\"");
    const std::string version = requireString(version_, "format_version");
    if (version.compare(0, 2, "1.") != 0)
      throw InputError("format_version: unsupported version \"" + version +
                       "\" (this pathcov reads 1.x)");
    if (functions_ == Scalar::Missing)
      throw InputError("functions: missing");
    if (functions_ != Scalar::Other)
      throw InputError("functions: expected an array");
    if (!functionProblem_.empty())
      throw InputError(functionProblem_);
    return std::move(index_);
  }

private:
  // Where the reader is: what the innermost open container is.
  enum class In { Top, Functions, Function, Ids, Id };

  // The scalar field the current key names, if the reader wants it.
  Scalar *field() {
    if (stack_.empty())
      return nullptr;
    switch (stack_.back()) {
    case In::Top:
      return key_ == "format" ? &format_ : key_ == "format_version" ? &version_ : nullptr;
    case In::Function:
      return key_ == "skipped"    ? &function_.skipped
             : key_ == "checksum" ? &function_.checksum
             : key_ == "identity" ? &function_.identity
                                  : nullptr;
    case In::Id:
      return key_ == "id" ? &id_ : nullptr;
    default:
      return nullptr;
    }
  }

  // The id list the current key names, in a function.
  IdList *idList() {
    if (stack_.empty() || stack_.back() != In::Function)
      return nullptr;
    return key_ == "paths"         ? &function_.paths
           : key_ == "field_paths" ? &function_.fieldPaths
                                   : nullptr;
  }

  bool scalar(Scalar value) {
    if (skipDepth_ > 0 || stack_.empty())
      return true;
    if (Scalar *slot = field())
      *slot = std::move(value);
    else if (IdList *list = idList())
      *list = IdList{value.kind == Scalar::Null ? IdList::Null : IdList::Other, {}, {}, 0};
    else if (stack_.back() == In::Top && key_ == "functions")
      functions_ = Scalar::Null; // anything but an array
    else if (stack_.back() == In::Functions)
      endFunction(FunctionFields{});
    else if (stack_.back() == In::Ids)
      endId(false);
    return true;
  }

  bool open(bool object) {
    if (skipDepth_ > 0) {
      ++skipDepth_;
      return true;
    }
    const std::optional<In> next = object ? openObject() : openArray();
    if (next)
      stack_.push_back(*next);
    else
      skipDepth_ = 1;
    return true;
  }

  std::optional<In> openObject() {
    if (stack_.empty()) {
      rootIsObject_ = true;
      return In::Top;
    }
    if (stack_.back() == In::Functions && functionProblem_.empty()) {
      function_ = FunctionFields{};
      function_.isObject = true;
      return In::Function;
    }
    if (stack_.back() == In::Ids) {
      id_ = Scalar{};
      return In::Id;
    }
    if (stack_.back() == In::Functions)
      return std::nullopt; // a problem is known: the rest is not needed
    markWrongType();
    return std::nullopt;
  }

  std::optional<In> openArray() {
    if (stack_.empty())
      return std::nullopt;
    if (stack_.back() == In::Top && key_ == "functions") {
      functions_ = Scalar::Other;
      index_.clear();
      functionProblem_.clear();
      functionCount_ = 0;
      return In::Functions;
    }
    if (IdList *list = idList()) {
      *list = IdList{IdList::Array, {}, {}, 0};
      list_ = list;
      listName_ = key_;
      return In::Ids;
    }
    markWrongType();
    return std::nullopt;
  }

  // A container where the reader wants a scalar or another container.
  void markWrongType() {
    if (Scalar *slot = field())
      *slot = Scalar{Scalar::Other, {}, 0};
    else if (IdList *list = idList())
      *list = IdList{IdList::Other, {}, {}, 0};
    else if (stack_.back() == In::Top && key_ == "functions")
      functions_ = Scalar::Null;
    else if (stack_.back() == In::Functions)
      endFunction(FunctionFields{});
    else if (stack_.back() == In::Ids)
      endId(false);
  }

  bool close() {
    if (skipDepth_ > 0) {
      --skipDepth_;
      return true;
    }
    const In closed = stack_.back();
    stack_.pop_back();
    if (closed == In::Function)
      endFunction(std::move(function_));
    else if (closed == In::Id)
      endId(true);
    return true;
  }

  // One element of an id list ends: an object with an id, or a problem.
  void endId(bool isObject) {
    IdList &list = *list_;
    const size_t element = list.elements++;
    if (!list.problem.empty())
      return;
    if (isObject && id_.kind == Scalar::Unsigned) {
      list.ids.push_back(id_.number);
      return;
    }
    const std::string where =
        JsonPath(functionWhere()).at(listName_).index(element).where();
    list.problem = !isObject                     ? where + ": expected an object"
                   : id_.kind == Scalar::Missing ? where + ".id: missing"
                                                 : where + ".id: expected a non-negative integer";
  }

  std::string functionWhere() const {
    return JsonPath().at("functions").index(functionCount_).where();
  }

  // One element of `functions` ends: checked in the DOM reader's order.
  void endFunction(FunctionFields f) {
    const std::string where = functionWhere();
    ++functionCount_;
    if (!functionProblem_.empty())
      return;
    try {
      addFunction(JsonPath(where), f);
    } catch (const InputError &e) {
      functionProblem_ = e.what();
    }
  }

  void addFunction(const JsonPath &at, FunctionFields &f) {
    if (f.skipped.kind != Scalar::Missing && f.skipped.kind != Scalar::Null &&
        !requireString(f.skipped, at.name("skipped")).empty())
      return;
    if (!f.isObject)
      throw InputError(at.where() + ": expected an object");
    TestedPaths tested{requireString(f.checksum, at.name("checksum")), {}};
    if (f.paths.kind == IdList::Missing)
      throw InputError(at.name("paths") + ": missing");
    const auto take = [&](IdList &list, const char *name) {
      if (list.kind != IdList::Array)
        throw InputError(at.name(name) + ": expected an array");
      if (!list.problem.empty())
        throw InputError(list.problem);
      tested.ids.insert(tested.ids.end(), list.ids.begin(), list.ids.end());
    };
    take(f.paths, "paths");
    // Field-observed paths are interesting too (docs/merge.md).
    if (f.fieldPaths.kind != IdList::Missing && f.fieldPaths.kind != IdList::Null)
      take(f.fieldPaths, "field_paths");
    std::sort(tested.ids.begin(), tested.ids.end());
    tested.ids.erase(std::unique(tested.ids.begin(), tested.ids.end()),
                     tested.ids.end());
    index_[requireString(f.identity, at.name("identity"))].push_back(std::move(tested));
  }

  std::string_view bytes_;
  std::vector<In> stack_;
  size_t skipDepth_ = 0; // inside a value nobody needs
  std::string key_;      // the last key of the innermost object

  bool rootIsObject_ = false;
  Scalar format_, version_;
  Scalar::Kind functions_ = Scalar::Missing; // Other: an array
  size_t functionCount_ = 0;
  FunctionFields function_;
  Scalar id_;
  IdList *list_ = nullptr;
  std::string listName_;

  TestedPathIndex index_;
  std::string functionProblem_;
  std::string syntaxError_;
};

} // namespace

TestedPathIndex readTestedPaths(std::string_view json) {
  TestedPathHandler handler(json);
  nlohmann::json::sax_parse(json.begin(), json.end(), &handler);
  return handler.result();
}

} // namespace pathcov
