#include "CorpusStream.h"

#include "FileIo.h"

#include "pathcov/format/InputError.h"
#include "pathcov/format/JsonFields.h"

#include <functional>
#include <map>
#include <vector>

namespace pathcov {

namespace {

using json = nlohmann::json;

// Builds the document as nlohmann's DOM parser does, but hands the
// elements of the arrays a corpus grows with (functions, reports,
// set_aside, and each field path's seen) to `take` as soon as each is
// whole, leaving their arrays empty in the document.
class SplittingSax : public nlohmann::json_sax<json> {
public:
  // The place of an element taken: functions[i] (function), reports[i],
  // set_aside[i], functions[i].field_paths[k].seen[n] (seen).
  enum class Piece { Function, Report, SetAside, Seen };
  using Take = std::function<void(Piece, const std::vector<size_t> &indices, json &)>;

  explicit SplittingSax(Take take) : take_(std::move(take)) {}
  json &document() { return document_; }

  bool null() override { return add(json()); }
  bool boolean(bool v) override { return add(json(v)); }
  bool number_integer(number_integer_t v) override { return add(json(v)); }
  bool number_unsigned(number_unsigned_t v) override { return add(json(v)); }
  bool number_float(number_float_t v, const string_t &) override { return add(json(v)); }
  bool string(string_t &v) override { return add(json(std::move(v))); }
  bool binary(binary_t &v) override { return add(json(std::move(v))); }
  bool start_object(std::size_t) override { return open(json::object()); }
  bool start_array(std::size_t) override { return open(json::array()); }
  // A member named twice keeps the last, as in nlohmann's document, but
  // for the arrays whose elements are handed out (they went their way
  // already): refused.
  bool key(string_t &k) override {
    const size_t depth = frames_.size(); // root 1, a function 3, a field path 5
    const bool handedOut =
        (depth == 1 && (k == "functions" || k == "reports" || k == "set_aside")) ||
        (depth == 3 && k == "field_paths") || (depth == 5 && k == "seen");
    if (handedOut && frames_.back().value.contains(k))
      throw InputError("\"" + k + "\": a member named twice in one object");
    frames_.back().key = std::move(k);
    return true;
  }
  bool end_object() override { return close(); }
  bool end_array() override { return close(); }
  bool parse_error(std::size_t end, const std::string &token,
                   const nlohmann::detail::exception &e) override {
    return throwJsonError(end, token, e);
  }

private:
  struct Frame {
    json value;
    std::string key;   // an object's member being read
    size_t next = 0;   // an array's next index
  };

  bool open(json container) {
    frames_.push_back({std::move(container), {}, 0});
    return true;
  }
  bool close() {
    json value = std::move(frames_.back().value);
    frames_.pop_back();
    return add(std::move(value));
  }

  // The element's place, when it is one of the pieces taken (the element
  // is added to frames_.back(), an array).
  bool piece(Piece &kind, std::vector<size_t> &indices) const {
    const size_t depth = frames_.size(); // the element's, from the root's 1
    if ((depth != 2 && depth != 6) || !frames_[0].value.is_object())
      return false;
    const std::string &top = frames_[0].key;
    indices.clear();
    if (depth == 2) {
      indices.push_back(frames_[1].next);
      if (top == "functions")
        kind = Piece::Function;
      else if (top == "reports")
        kind = Piece::Report;
      else if (top == "set_aside")
        kind = Piece::SetAside;
      else
        return false;
      return true;
    }
    if (top != "functions" || !frames_[1].value.is_array() ||
        !frames_[2].value.is_object() || frames_[2].key != "field_paths" ||
        !frames_[3].value.is_array() || !frames_[4].value.is_object() ||
        frames_[4].key != "seen")
      return false;
    indices = {frames_[1].next, frames_[3].next, frames_[5].next};
    kind = Piece::Seen;
    return true;
  }

  bool add(json value) {
    if (frames_.empty()) {
      document_ = std::move(value);
      return true;
    }
    Frame &parent = frames_.back();
    if (parent.value.is_object()) {
      parent.value[parent.key] = std::move(value);
      return true;
    }
    Piece kind;
    if (piece(kind, indices_))
      take_(kind, indices_, value);
    else
      parent.value.push_back(std::move(value));
    ++parent.next;
    return true;
  }

  Take take_;
  std::vector<Frame> frames_;
  std::vector<size_t> indices_;
  json document_;
};

// Reads no more than the top's "format" and "format_version".
class FormatSax : public nlohmann::json_sax<json> {
public:
  json format = json::object();

  bool null() override { return scalar(json()); }
  bool boolean(bool v) override { return scalar(json(v)); }
  bool number_integer(number_integer_t v) override { return scalar(json(v)); }
  bool number_unsigned(number_unsigned_t v) override { return scalar(json(v)); }
  bool number_float(number_float_t v, const string_t &) override { return scalar(json(v)); }
  bool string(string_t &v) override { return scalar(json(v)); }
  bool binary(binary_t &) override { return scalar(json()); }
  bool start_object(std::size_t) override { return ++depth_, true; }
  bool start_array(std::size_t) override { return ++depth_, true; }
  bool key(string_t &k) override {
    if (depth_ == 1)
      key_ = k;
    return true;
  }
  bool end_object() override { return --depth_, true; }
  bool end_array() override { return --depth_, true; }
  bool parse_error(std::size_t end, const std::string &token,
                   const nlohmann::detail::exception &e) override {
    return throwJsonError(end, token, e);
  }

private:
  // False (stop) once both are read.
  bool scalar(json value) {
    if (depth_ == 1 && (key_ == "format" || key_ == "format_version"))
      format[key_] = std::move(value);
    return format.size() < 2;
  }

  int depth_ = 0;
  std::string key_;
};

} // namespace

json documentFormat(const std::string &path) {
  FormatSax sax;
  parseJsonStreamed(path, sax);
  return sax.format;
}

Corpus streamCorpus(const std::string &path, FieldStore &store) {
  checkFormat(documentFormat(path), kCorpusFormat, kCorpusMajorVersion);
  Corpus corpus;
  const JsonPath top;
  std::vector<uint64_t> fieldPathIds;
  std::map<size_t, size_t> seenOf; // the function being read: k -> sightings
  SplittingSax sax([&](SplittingSax::Piece kind, const std::vector<size_t> &at,
                       json &piece) {
    switch (kind) {
    case SplittingSax::Piece::Report: {
      const JsonPath place = top.at("reports").index(at[0]);
      const auto [id, report] = readCorpusReport(place, piece);
      if (store.stageReport(id, report))
        throw InputError(place.name("id") + ": report " + id + " is listed twice");
      break;
    }
    case SplittingSax::Piece::SetAside: {
      const JsonPath place = top.at("set_aside").index(at[0]);
      const auto [report, sighting] = readCorpusSighting(place, piece);
      const FieldKey path = readSetAsidePath(place, piece);
      if (store.stageSighting(place.where(), path, report, sighting))
        throw InputError(listedTwice(place, path, report));
      break;
    }
    case SplittingSax::Piece::Seen: {
      const JsonPath place = top.at("functions").index(at[0]).at("field_paths")
                                 .index(at[1]).at("seen").index(at[2]);
      const auto [report, sighting] = readCorpusSighting(place, piece);
      store.stageSeen(place.where(), at[0], at[1], report, sighting);
      ++seenOf[at[1]];
      break;
    }
    case SplittingSax::Piece::Function: {
      const JsonPath place = top.at("functions").index(at[0]);
      CorpusFunction f = readCorpusFunction(place, piece, fieldPathIds);
      for (size_t k = 0; k < fieldPathIds.size(); ++k) {
        if (!seenOf.count(k))
          throw InputError(place.at("field_paths").index(k).name("seen") +
                           ": a field path was seen at least once");
        store.placeSeen(at[0], k,
                        {f.metadata.identity, f.metadata.checksum, fieldPathIds[k]});
      }
      seenOf.clear();
      const FunctionKey key = keyOf(f.metadata);
      if (!corpus.functions.emplace(key, std::move(f)).second)
        throw InputError(place.where() + ": function " + key.first +
                         " is listed twice");
      break;
    }
    }
  });
  parseJsonStreamed(path, sax);
  const json &doc = sax.document();
  readCorpusHeader(doc, corpus);
  top.optionalField<std::vector<json>>(doc, "reports", {});
  top.optionalField<std::vector<json>>(doc, "set_aside", {});
  if (!top.field<const json &>(doc, "functions").is_array())
    throw InputError("functions: expected an array");
  return corpus;
}

} // namespace pathcov
