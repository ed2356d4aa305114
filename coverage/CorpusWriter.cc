#include "CorpusWriter.h"

#include "Percent.h"

#include "pathcov/core/Checked.h"
#include "pathcov/format/FileDescriptor.h"

#include <map>
#include <set>
#include <string>

namespace pathcov {

namespace {

using json = nlohmann::json;

// JSON text as nlohmann's dump(1) lays it out (a member or element a line,
// one space of indent a level), but for the entries a corpus has one of
// per report (valueOnOneLine), written through a buffer as it is made.
class PrettyWriter {
public:
  explicit PrettyWriter(int fd) : fd_(fd) {}

  void beginObject() { open('{'); }
  void beginArray() { open('['); }
  void end() {
    const char kind = kinds_.back();
    const bool empty = firsts_.back();
    kinds_.pop_back();
    firsts_.pop_back();
    if (!empty) {
      put("\n");
      indent();
    }
    put(kind == '{' ? "}" : "]");
  }
  // An object's member: its value follows (value, or begin...).
  void key(const std::string &name) {
    next();
    put(json(name).dump());
    put(": ");
  }
  void element() { next(); }
  void value(const json &v) {
    const std::string text = v.dump(1);
    size_t from = 0;
    for (size_t nl; (nl = text.find('\n', from)) != std::string::npos; from = nl + 1) {
      put(std::string_view(text).substr(from, nl + 1 - from));
      indent();
    }
    put(std::string_view(text).substr(from));
  }
  // Half the bytes of value's layout, for what a fleet's reports multiply.
  void valueOnOneLine(const json &v) { put(v.dump()); }
  void member(const std::string &name, const json &v) {
    key(name);
    value(v);
  }

  void put(std::string_view text) {
    if (buffer_.size() + text.size() > kBuffer)
      flush();
    buffer_.append(text);
  }
  bool flush() {
    ok_ = ok_ && writeAll(fd_, buffer_);
    buffer_.clear();
    return ok_;
  }

private:
  static constexpr size_t kBuffer = size_t(1) << 20;

  void open(char kind) {
    put(kind == '{' ? "{" : "[");
    kinds_.push_back(kind);
    firsts_.push_back(true);
  }
  void next() {
    put(firsts_.back() ? "\n" : ",\n");
    firsts_.back() = false;
    indent();
  }
  void indent() {
    if (buffer_.size() + kinds_.size() > kBuffer)
      flush();
    buffer_.append(kinds_.size(), ' ');
  }

  int fd_;
  bool ok_ = true;
  std::string buffer_;
  std::string kinds_;
  std::vector<bool> firsts_;
};

// functions[].field_paths[].seen[n]: one report's sighting, with its
// calling contexts if it has any.
json sightingJson(const std::string &report, const FieldSighting &s) {
  json j{{"count", s.count}, {"first_seen_ns", s.firstSeenNs}, {"report", report}};
  if (s.contexts.samples)
    j["contexts"] = toJson(s.contexts);
  return j;
}

// A field path's sightings added up.
struct FieldPathTotals {
  uint64_t count = 0, reports = 0, first = UINT64_MAX, last = 0;
  std::set<std::string> buildIds;
};

// functions[].field_paths of the function `f`: its paths the field ran,
// each with its totals and every report's sighting (two walks over the
// sightings, so that none is held).
void writeFieldPaths(PrettyWriter &out, const Corpus &corpus,
                     const CorpusFunction &f, const FieldStore &field) {
  const FunctionKey key = keyOf(f.metadata);
  std::map<uint64_t, FieldPathTotals> totals;
  field.forEachSighting(&key, [&](const FieldKey &path, const std::string &,
                                  const std::string &buildId,
                                  const FieldSighting &s) {
    if (!whySetAside(corpus, path).empty())
      return;
    FieldPathTotals &t = totals[std::get<2>(path)];
    t.count = saturatingAdd(t.count, s.count);
    ++t.reports;
    t.first = std::min(t.first, s.firstSeenNs);
    t.last = std::max(t.last, s.firstSeenNs);
    if (!buildId.empty())
      t.buildIds.insert(buildId);
  });
  if (totals.empty())
    return;
  out.key("field_paths");
  out.beginArray();
  bool open = false;
  uint64_t current = 0;
  field.forEachSighting(&key, [&](const FieldKey &path, const std::string &report,
                                  const std::string &, const FieldSighting &s) {
    const auto t = totals.find(std::get<2>(path));
    if (t == totals.end())
      return;
    if (!open || current != t->first) {
      if (open) {
        out.end(); // seen
        out.end(); // the field path
      }
      open = true;
      current = t->first;
      out.element();
      out.beginObject();
      out.member("build_ids", t->second.buildIds);
      out.member("count", t->second.count);
      out.member("first_seen_ns", t->second.first);
      out.member("id", t->first);
      out.member("last_seen_ns", t->second.last);
      out.member("reports", t->second.reports);
      out.key("seen");
      out.beginArray();
    }
    out.element();
    out.valueOnOneLine(sightingJson(report, s));
  });
  out.end();
  out.end();
  out.end(); // field_paths
}

void writeFunction(PrettyWriter &out, const Corpus &corpus, const CorpusFunction &f,
                   const FieldStore *field) {
  json j = toJson(f.metadata);
  if (f.metadata.skipped.empty()) {
    json paths = json::array();
    for (const auto &[id, p] : f.paths)
      paths.push_back({{"id", id}, {"count", p.count}, {"tests", p.tests}});
    addFunctionCounts(j, f);
    j["paths"] = std::move(paths);
    addKPathsJson(j, f);
  }
  // Members in the order of their keys, as nlohmann keeps them.
  bool fieldWritten = !field || !f.metadata.skipped.empty();
  out.beginObject();
  for (const auto &[name, value] : j.items()) {
    if (!fieldWritten && name > "field_paths") {
      writeFieldPaths(out, corpus, f, *field);
      fieldWritten = true;
    }
    out.member(name, value);
  }
  if (!fieldWritten)
    writeFieldPaths(out, corpus, f, *field);
  out.end();
}

// Counts a path set aside (paths come by function, each once).
void countSetAside(SetAsideSummary &summary, const FieldKey &path,
                   const std::string &why, FunctionKey &lastFunction) {
  const FunctionKey function{std::get<0>(path), std::get<1>(path)};
  if (summary.paths++ == 0) {
    summary.firstIdentity = function.first;
    summary.firstWhy = why;
  }
  if (summary.functions == 0 || function != lastFunction)
    ++summary.functions;
  lastFunction = function;
}

// set_aside: the sightings no function of the corpus can take, with why.
void writeSetAside(PrettyWriter &out, const Corpus &corpus, const FieldStore &field,
                   SetAsideSummary &summary) {
  bool any = false;
  FieldKey last;
  std::string why;
  FunctionKey lastFunction; // the last function set aside
  field.forEachSighting(nullptr, [&](const FieldKey &path, const std::string &report,
                                     const std::string &, const FieldSighting &s) {
    if (!any || path != last) {
      why = whySetAside(corpus, path);
      last = path;
      if (!why.empty())
        countSetAside(summary, path, why, lastFunction);
    }
    if (why.empty())
      return;
    if (!any) {
      out.key("set_aside");
      out.beginArray();
      any = true;
    }
    const auto &[identity, checksum, id] = path;
    out.element();
    json entry = sightingJson(report, s);
    entry["identity"] = identity;
    entry["checksum"] = checksum;
    entry["id"] = id;
    entry["why"] = why;
    out.valueOnOneLine(entry);
  });
  if (any)
    out.end();
}

} // namespace

bool writeCorpus(int fd, const Corpus &corpus, const FieldStore *field,
                 SetAsideSummary *setAside) {
  PrettyWriter out(fd);
  out.beginObject();
  out.member("format", kCorpusFormat);
  out.member("format_version", std::to_string(kCorpusMajorVersion) + ".0");
  out.key("functions");
  out.beginArray();
  for (const CorpusFunction *f : inSourceOrder(corpus)) {
    out.element();
    writeFunction(out, corpus, *f, field);
  }
  out.end();
  json modules = json::array();
  for (const CorpusModule &m : corpus.modules)
    modules.push_back({{"path", m.path},
                       {"build_id", m.buildId.empty() ? json() : json(m.buildId)}});
  out.member("modules", modules);
  if (!corpus.profileIds.empty())
    out.member("profile_ids", corpus.profileIds);
  out.member("profiles", corpus.profiles);
  if (field && field->reports() > 0) {
    out.key("reports");
    out.beginArray();
    field->forEachReport([&](const std::string &id, const MergedReport &r) {
      out.element();
      json j{{"id", id},
             {"module", r.module},
             {"build_id", r.buildId.empty() ? json() : json(r.buildId)},
             {"pid", r.pid},
             {"started_ns", r.startedNs},
             {"written_ns", r.writtenNs},
             {"reason", r.reason},
             {"dropped_paths", r.droppedPaths}};
      if (!r.contextModules.empty())
        j["context_modules"] = contextModulesJson(r.contextModules);
      out.valueOnOneLine(j);
    });
    out.end();
  }
  SetAsideSummary summary;
  if (field)
    writeSetAside(out, corpus, *field, summary);
  if (setAside)
    *setAside = summary;
  out.end();
  out.put("\n");
  return out.flush();
}

// writeSetAside's count, over a corpus read back.
SetAsideSummary summarizeSetAside(const Corpus &corpus) {
  SetAsideSummary summary;
  FunctionKey lastFunction;
  for (const auto &[path, sightings] : corpus.field)
    if (const std::string why = whySetAside(corpus, path); !why.empty())
      countSetAside(summary, path, why, lastFunction);
  return summary;
}

std::string setAsideText(const SetAsideSummary &setAside) {
  return countOf(setAside.paths, "field path") + " of " +
         countOf(setAside.functions, "function") +
         " set aside, in the corpus's set_aside (first: " +
         setAside.firstIdentity + ": " + setAside.firstWhy + ")";
}

} // namespace pathcov
