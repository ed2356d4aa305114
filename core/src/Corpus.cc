#include "pathcov/format/Corpus.h"

#include "pathcov/format/JsonFields.h"

#include "TestedPathScan.h"

#include "pathcov/core/Checked.h"
#include "pathcov/core/KPaths.h"
#include "pathcov/core/Paths.h"

#include <algorithm>
#include <tuple>

namespace pathcov {

FunctionKey keyOf(const FunctionMetadata &f) { return {f.identity, f.checksum}; }

std::string profileId(const std::string &buildId, const std::string &file,
                      const std::string &content) {
  const size_t slash = file.rfind('/');
  return (buildId.empty() ? "-" : buildId) + ":" +
         (slash == std::string::npos ? file : file.substr(slash + 1)) + ":" +
         hex64(fnv1a64(content));
}

std::string reportId(const std::string &buildId, uint64_t pid,
                     uint64_t startedNs, uint64_t writtenNs) {
  return (buildId.empty() ? "-" : buildId) + ":" + std::to_string(pid) + ":" +
         std::to_string(startedNs) + ":" + std::to_string(writtenNs);
}

std::string whySetAside(const Corpus &corpus, const FieldKey &path) {
  const auto &[identity, checksum, id] = path;
  const auto known = corpus.functions.find({identity, checksum});
  if (known != corpus.functions.end()) {
    const FunctionMetadata &f = known->second.metadata;
    if (!f.skipped.empty())
      return "the corpus has the function uninstrumented (" + f.skipped + ")";
    if (id >= f.numPaths)
      return "path id " + std::to_string(id) + " is not a path of the function (" +
             std::to_string(f.numPaths) + " paths)";
    return "";
  }
  std::string others;
  bool uninstrumented = false;
  for (auto it = corpus.functions.lower_bound({identity, ""});
       it != corpus.functions.end() && it->first.first == identity; ++it) {
    if (it->first.second.empty()) {
      uninstrumented = true;
      continue;
    }
    others += (others.empty() ? "" : ", ") + it->first.second;
  }
  if (!others.empty())
    return "the corpus has the function only with another CFG (checksum " +
           others + "): the report's build compiled it otherwise, or it "
           "changed since";
  if (uninstrumented)
    return "the corpus has the function uninstrumented";
  return "the corpus has no function " + identity +
         " (collect with --binary takes in the functions the tests never ran)";
}

FieldRuns fieldRunsByFunction(const Corpus &corpus) {
  FieldRuns found;
  for (const auto &[path, seen] : corpus.field) {
    if (!whySetAside(corpus, path).empty())
      continue;
    const auto &[identity, checksum, id] = path;
    uint64_t &count = found[{identity, checksum}][id];
    for (const auto &[report, sighting] : seen)
      count = saturatingAdd(count, sighting.count);
  }
  return found;
}

const std::map<uint64_t, uint64_t> *fieldRunsOf(const FieldRuns &field,
                                                const CorpusFunction &f) {
  const auto found = field.find(keyOf(f.metadata));
  return found == field.end() ? nullptr : &found->second;
}

uint64_t untestedFieldPaths(const CorpusFunction &f,
                            const std::map<uint64_t, uint64_t> *fieldRuns) {
  if (!fieldRuns)
    return 0;
  return std::count_if(fieldRuns->begin(), fieldRuns->end(),
                       [&](const auto &run) { return !f.paths.count(run.first); });
}

uint64_t interruptedPaths(const FunctionMetadata &f, const NumberedDag &numbered,
                          uint64_t callsAndResumes,
                          const std::map<uint64_t, TestedPath> &paths) {
  const Dag &dag = numbered.dag;
  uint64_t finished = 0;
  for (const auto &[id, path] : paths) {
    const DagEdge &last =
        dag.edges[regeneratePath(dag, numbered.ballLarus, id).back()];
    // A path ends its invocation by returning (a CFG edge into EXIT) or at
    // a block with no way on at all (noreturn call, resx out).
    if (last.role == DagEdgeRole::Cfg || f.cfg->succs(last.src).empty())
      finished += path.count;
  }
  return callsAndResumes > finished ? callsAndResumes - finished : 0;
}

void addFunctionCounts(nlohmann::json &j, const CorpusFunction &f) {
  j["calls"] = f.calls;
  j["resumes"] = f.resumes;
  j["interrupted"] = f.interrupted;
  j["invalid_ids"] = f.invalidIds;
  j["dropped"] = f.dropped;
}

void addKPaths(CorpusFunction &f, unsigned k,
               const std::map<std::vector<uint64_t>, TestedPath> &kPaths,
               uint64_t dropped, const std::string &where) {
  if (k <= 1)
    return;
  if (f.metadata.k > 1 && f.metadata.k != k)
    throw InputError(where + ": function " + f.metadata.identity +
                     " has paths across iterations counted with k=" +
                     std::to_string(k) + ", and with k=" +
                     std::to_string(f.metadata.k) +
                     " before: record every test of a function with one k");
  f.metadata.k = k;
  f.kDropped = saturatingAdd(f.kDropped, dropped);
  addPathCounts(f.kPaths, kPaths);
}

namespace {
template <typename Key>
void addCounts(std::map<Key, TestedPath> &into, const std::map<Key, TestedPath> &from) {
  for (const auto &[key, path] : from) {
    TestedPath &p = into[key];
    p.count = saturatingAdd(p.count, path.count);
    p.tests.insert(path.tests.begin(), path.tests.end());
  }
}
} // namespace

void addPathCounts(std::map<uint64_t, TestedPath> &into,
                   const std::map<uint64_t, TestedPath> &from) {
  addCounts(into, from);
}

void addPathCounts(std::map<std::vector<uint64_t>, TestedPath> &into,
                   const std::map<std::vector<uint64_t>, TestedPath> &from) {
  addCounts(into, from);
}

TransitionCoverage loopTransitionsOf(const CorpusFunction &f,
                                     const NumberedDag &numbered) {
  if (f.metadata.k < 2)
    return {};
  std::vector<PathPair> windows;
  for (const auto &window : f.kPaths)
    if (window.first.size() == 2)
      windows.emplace_back(window.first[0], window.first[1]);
  return loopTransitions(*f.metadata.cfg, numbered, windows);
}

void addKPathsJson(nlohmann::json &j, const CorpusFunction &f) {
  if (f.metadata.k <= 1)
    return;
  j["k_dropped"] = f.kDropped;
  nlohmann::json kPaths = nlohmann::json::array();
  for (const auto &[ids, p] : f.kPaths)
    kPaths.push_back({{"ids", ids}, {"count", p.count}, {"tests", p.tests}});
  j["k_paths"] = std::move(kPaths);
}

std::vector<const CorpusFunction *> inSourceOrder(const Corpus &corpus) {
  std::vector<const CorpusFunction *> ordered;
  for (const auto &[key, f] : corpus.functions)
    ordered.push_back(&f);
  std::sort(ordered.begin(), ordered.end(),
            [](const CorpusFunction *a, const CorpusFunction *b) {
              const FunctionMetadata &x = a->metadata, &y = b->metadata;
              return std::tie(x.file, x.line, x.identity, x.checksum) <
                     std::tie(y.file, y.line, y.identity, y.checksum);
            });
  return ordered;
}

namespace {

// One function of a corpus into `index`, as residual mode needs it.
void addTestedFunction(const JsonPath &at, const nlohmann::json &f,
                       TestedPathIndex &index) {
  if (!at.optionalField<std::string>(f, "skipped", "").empty())
    return;
  TestedPaths tested{at.field<std::string>(f, "checksum"), {}, {},
                     at.optionalField<std::string>(f, "optimization", "")};
  // Field-observed paths are interesting too (docs/merge.md). Counts are
  // optional here: they only place chords (a corpus has them; without,
  // the compiler's estimates do).
  std::vector<std::pair<uint64_t, uint64_t>> idCounts;
  const auto add = [&](const char *list, const std::vector<nlohmann::json> &paths) {
    for (size_t k = 0; k < paths.size(); ++k) {
      const JsonPath path = at.at(list).index(k);
      idCounts.emplace_back(path.field<uint64_t>(paths[k], "id"),
                            path.optionalField<uint64_t>(paths[k], "count", 0));
    }
  };
  add("paths", at.field<std::vector<nlohmann::json>>(f, "paths"));
  add("field_paths", at.optionalField<std::vector<nlohmann::json>>(f, "field_paths", {}));
  setTestedPathCounts(tested, idCounts);
  addTestedPaths(index, at.field<std::string>(f, "identity"),
                 at.optionalField<std::string>(f, "file", ""), std::move(tested));
}

// readTestedPaths's SAX handler: a corpus is mostly metadata residual mode
// does not need (blocks, edges, lines, tests), and a large one is a
// gigabyte, so nothing is kept but the top object's format fields and one
// function at a time, holding only the keys addTestedFunction reads.
class TestedPathsReader {
public:
  explicit TestedPathsReader(TestedPathIndex &index) : index_(index) {}

  bool null() { return value(nullptr); }
  bool boolean(bool v) { return value(v); }
  bool number_integer(int64_t v) { return value(v); }
  bool number_unsigned(uint64_t v) { return value(v); }
  bool number_float(double v, const std::string &) { return value(v); }
  bool string(std::string &v) { return value(v); }
  bool binary(nlohmann::json::binary_t &) { return value(nullptr); }

  bool start_object(size_t) { return open(nlohmann::json::object()); }
  bool start_array(size_t) { return open(nlohmann::json::array()); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

  bool key(std::string &k) {
    if (skipping_)
      return true;
    // Keys of the top object (depth 1), of a function (3), of a path or
    // field path (5).
    const size_t depth = stack_.size();
    const bool keep =
        depth == 1   ? k == "format" || k == "format_version" || k == "functions"
        : depth == 3 ? k == "identity" || k == "file" || k == "checksum" || k == "skipped" ||
                           k == "optimization" || k == "paths" || k == "field_paths"
        : depth == 5 ? k == "id" || k == "count"
                     : true;
    if (!keep) {
      skipping_ = true; // the value that follows
      return true;
    }
    key_ = k;
    return true;
  }

  // The problems in the order a DOM reader finds them: the format, then
  // the functions (of the last "functions" key, as in a DOM).
  void finish() const {
    checkFormat(top_, kCorpusFormat, kCorpusMajorVersion);
    if (!sawFunctions_)
      throw InputError("functions: missing");
    if (!problem_.empty())
      throw InputError(problem_);
  }

private:
  // A "functions" key: what an earlier one held is forgotten.
  void startFunctions(bool isArray) {
    sawFunctions_ = true;
    index_.clear();
    functionIndex_ = 0;
    problem_ = isArray ? "" : "functions: expected an array";
  }

  // One function, unless an earlier one was bad: its problem is the one
  // reported once the format has been checked.
  void add(const nlohmann::json &f) {
    const JsonPath at = JsonPath("functions").index(functionIndex_++);
    if (!problem_.empty())
      return;
    try {
      addTestedFunction(at, f, index_);
    } catch (const InputError &e) {
      problem_ = e.what();
    }
  }

  // Containers below a dropped key are counted, not built.
  bool open(nlohmann::json container) {
    if (skipping_) {
      ++skipped_;
      return true;
    }
    const size_t depth = stack_.size();
    if (depth == 0) {
      if (!container.is_object())
        throw InputError("the document: expected an object");
      stack_.push_back(&top_);
      return true;
    }
    if (depth == 1 && key_ == "functions") {
      startFunctions(container.is_array());
      if (!container.is_array()) {
        skipping_ = true;
        ++skipped_;
        return true;
      }
      stack_.push_back(nullptr); // the functions array: never built
      return true;
    }
    if (depth == 2) { // a function
      function_ = std::move(container);
      stack_.push_back(&function_);
      return true;
    }
    stack_.push_back(insert(std::move(container)));
    return true;
  }

  bool close() {
    if (skipping_) {
      if (--skipped_ == 0)
        skipping_ = false;
      return true;
    }
    stack_.pop_back();
    if (stack_.size() == 2) { // a function ended
      add(function_);
      function_ = nullptr;
    }
    return true;
  }

  template <class T> bool value(T &&v) {
    if (skipping_) {
      if (skipped_ == 0) // a dropped key's scalar value
        skipping_ = false;
      return true;
    }
    if (stack_.size() == 2) { // a function that is not an object
      add(nlohmann::json(std::forward<T>(v)));
      return true;
    }
    if (stack_.empty())
      throw InputError("the document: expected an object");
    if (stack_.size() == 1 && key_ == "functions") {
      startFunctions(false);
      return true;
    }
    insert(nlohmann::json(std::forward<T>(v)));
    return true;
  }

  // Into the innermost open container: under key_ in an object.
  nlohmann::json *insert(nlohmann::json v) {
    nlohmann::json &parent = *stack_.back();
    if (parent.is_array()) {
      parent.push_back(std::move(v));
      return &parent.back();
    }
    nlohmann::json &slot = parent[key_];
    slot = std::move(v);
    return &slot;
  }

  TestedPathIndex &index_;
  nlohmann::json top_ = nlohmann::json::object();
  nlohmann::json function_;
  std::vector<nlohmann::json *> stack_; // open containers; null: functions
  std::string key_;
  size_t functionIndex_ = 0;
  bool sawFunctions_ = false;
  std::string problem_; // the first bad function's
  bool skipping_ = false; // while a dropped key's value goes by
  size_t skipped_ = 0;    // containers open inside it
};

} // namespace

TestedPathIndex readTestedPaths(std::string_view json) {
  if (std::optional<TestedPathIndex> plain = scanTestedPaths(json))
    return std::move(*plain);
  return readTestedPathsReference(json);
}

TestedPathIndex readTestedPathsReference(std::string_view json) {
  TestedPathIndex index;
  PlacedJsonParser<TestedPathsReader> parser(json, index);
  nlohmann::json::sax_parse(json.begin(), json.end(), &parser);
  parser.finish();
  return index;
}

void readCorpusHeader(const nlohmann::json &doc, Corpus &corpus) {
  checkFormat(doc, kCorpusFormat, kCorpusMajorVersion);
  const JsonPath top;
  for (const nlohmann::json &m :
       top.field<std::vector<nlohmann::json>>(doc, "modules"))
    corpus.modules.push_back(
        {top.at("modules").field<std::string>(m, "path"),
         top.at("modules").optionalField<std::string>(m, "build_id", "")});
  corpus.profiles = top.field<uint64_t>(doc, "profiles");
  corpus.profileIds =
      top.optionalField<std::set<std::string>>(doc, "profile_ids", {});
}

bool isLowerHex(const std::string &text) {
  return text.find_first_not_of("0123456789abcdef") == std::string::npos;
}

std::string readBuildId(const JsonPath &at, const nlohmann::json &object,
                        const char *key) {
  if (!object.contains(key))
    throw InputError(at.name(key) + ": missing");
  const std::string buildId = at.optionalField<std::string>(object, key, "");
  if (object[key].is_string() &&
      (buildId.empty() || buildId.size() % 2 || !isLowerHex(buildId)))
    throw InputError(at.name(key) + ": expected lowercase hex digits, or null");
  return buildId;
}

std::vector<CorpusModule> readContextModules(const JsonPath &at,
                                             const nlohmann::json &modules) {
  if (!modules.is_array())
    throw InputError(at.where() + ": expected an array");
  std::vector<CorpusModule> read;
  for (size_t i = 0; i < modules.size(); ++i) {
    const JsonPath m = at.index(i);
    read.push_back({m.field<std::string>(modules[i], "path"),
                    readBuildId(m, modules[i])});
  }
  return read;
}

nlohmann::json contextModulesJson(const std::vector<CorpusModule> &modules) {
  nlohmann::json j = nlohmann::json::array();
  for (const CorpusModule &m : modules)
    j.push_back({{"path", m.path},
                 {"build_id", m.buildId.empty() ? nlohmann::json()
                                                : nlohmann::json(m.buildId)}});
  return j;
}

CallingContexts readCallingContexts(const JsonPath &at, const nlohmann::json &c,
                                    size_t numModules) {
  CallingContexts read;
  read.samples = at.field<uint64_t>(c, "samples");
  if (read.samples == 0)
    throw InputError(at.name("samples") + ": expected at least 1");
  const nlohmann::json &kept = at.field<const nlohmann::json &>(c, "kept");
  if (!kept.is_array())
    throw InputError(at.name("kept") + ": expected an array");
  uint64_t certain = 0; // samples the kept contexts surely had
  for (size_t i = 0; i < kept.size(); ++i) {
    const JsonPath k = at.at("kept").index(i);
    CallingContext context;
    context.count = k.field<uint64_t>(kept[i], "count");
    context.error = k.field<uint64_t>(kept[i], "error");
    if (context.count == 0 || context.error >= context.count)
      throw InputError(k.name("count") +
                       ": expected at least 1, and more than its error");
    if (__builtin_add_overflow(certain, context.count - context.error, &certain) ||
        certain > read.samples)
      throw InputError(k.name("count") + ": the contexts kept were sampled "
                       "more often than the path's samples");
    const nlohmann::json &frames =
        k.field<const nlohmann::json &>(kept[i], "frames");
    if (!frames.is_array() || frames.empty())
      throw InputError(k.name("frames") + ": expected a non-empty array");
    for (size_t n = 0; n < frames.size(); ++n) {
      const JsonPath f = k.at("frames").index(n);
      ContextFrame frame;
      frame.address = f.field<uint64_t>(frames[n], "address");
      if (!frames[n].contains("module"))
        throw InputError(f.name("module") + ": missing");
      if (!frames[n]["module"].is_null()) {
        frame.module = f.field<uint64_t>(frames[n], "module");
        if (*frame.module >= numModules)
          throw InputError(f.name("module") + ": no such entry of "
                           "context_modules (it has " +
                           std::to_string(numModules) + ")");
      }
      context.frames.push_back(frame);
    }
    read.kept.push_back(std::move(context));
  }
  return read;
}

nlohmann::json toJson(const CallingContexts &contexts) {
  nlohmann::json kept = nlohmann::json::array();
  for (const CallingContext &c : contexts.kept) {
    nlohmann::json frames = nlohmann::json::array();
    for (const ContextFrame &f : c.frames)
      frames.push_back({{"module", f.module ? nlohmann::json(*f.module)
                                            : nlohmann::json()},
                        {"address", f.address}});
    kept.push_back({{"count", c.count}, {"error", c.error}, {"frames", frames}});
  }
  return {{"samples", contexts.samples}, {"kept", std::move(kept)}};
}

size_t modulesNeeded(const CallingContexts &contexts) {
  size_t needed = 0;
  for (const CallingContext &c : contexts.kept)
    for (const ContextFrame &f : c.frames)
      if (f.module)
        needed = std::max(needed, *f.module + 1);
  return needed;
}

std::string contextsBeyondReport(const JsonPath &at, const std::string &report) {
  return at.name("contexts") + ": a frame names a module that report " + report +
         "'s context_modules does not list";
}

void addContexts(CallingContexts &into, const CallingContexts &more) {
  into.samples += more.samples;
  into.kept.insert(into.kept.end(), more.kept.begin(), more.kept.end());
}

std::pair<std::string, MergedReport> readCorpusReport(const JsonPath &at,
                                                      const nlohmann::json &r,
                                                      const char *idKey) {
  MergedReport report;
  std::string id = at.field<std::string>(r, idKey);
  report.module = at.field<std::string>(r, "module");
  report.buildId = readBuildId(at, r);
  report.pid = at.field<uint64_t>(r, "pid");
  report.startedNs = at.field<uint64_t>(r, "started_ns");
  report.writtenNs = at.field<uint64_t>(r, "written_ns");
  report.reason = at.field<std::string>(r, "reason");
  report.droppedPaths = at.field<uint64_t>(r, "dropped_paths");
  if (r.contains("context_modules"))
    report.contextModules =
        readContextModules(at.at("context_modules"), r["context_modules"]);
  if (id != reportId(report.buildId, report.pid, report.startedNs,
                     report.writtenNs))
    throw InputError(at.name(idKey) + ": \"" + id +
                     "\" is not the id of the report it describes");
  return {std::move(id), std::move(report)};
}

std::pair<std::string, FieldSighting> readCorpusSighting(const JsonPath &at,
                                                         const nlohmann::json &s) {
  std::string report = at.field<std::string>(s, "report");
  FieldSighting sighting{at.field<uint64_t>(s, "count"),
                         at.field<uint64_t>(s, "first_seen_ns"),
                         {}};
  if (sighting.count == 0)
    throw InputError(at.name("count") + ": a listed path ran at least once");
  // Their modules are checked against the report's (contextsFitReport).
  if (s.contains("contexts"))
    sighting.contexts = readCallingContexts(at.at("contexts"), s["contexts"],
                                            SIZE_MAX);
  return {std::move(report), std::move(sighting)};
}

FieldKey readSetAsidePath(const JsonPath &at, const nlohmann::json &e) {
  return {at.field<std::string>(e, "identity"),
          at.field<std::string>(e, "checksum"), at.field<uint64_t>(e, "id")};
}

namespace {

// "k_dropped" and "k_paths" (CorpusFunction::kPaths): windows of 2..k ids
// of the function's paths, each listed once, with their counts.
void readKPaths(const JsonPath &at, const nlohmann::json &j, CorpusFunction &f) {
  const unsigned k = f.metadata.k; // its "k", read with the metadata
  f.kDropped = at.optionalField<uint64_t>(j, "k_dropped", 0);
  const auto kPaths =
      at.optionalField<std::vector<nlohmann::json>>(j, "k_paths", {});
  if (!kPaths.empty() && k == 1)
    throw InputError(at.name("k_paths") +
                     ": windows need the k they were counted with (k is 1 or "
                     "missing)");
  for (size_t n = 0; n < kPaths.size(); ++n) {
    const JsonPath p = at.at("k_paths").index(n);
    const auto ids = p.field<std::vector<uint64_t>>(kPaths[n], "ids");
    if (ids.size() < 2 || ids.size() > k)
      throw InputError(p.name("ids") + ": expected 2 to " + std::to_string(k) +
                       " paths, not " + std::to_string(ids.size()));
    for (size_t i = 0; i < ids.size(); ++i)
      f.metadata.requirePath(ids[i], p.name("ids") + "[" + std::to_string(i) + "]");
    const TestedPath tested{p.field<uint64_t>(kPaths[n], "count"),
                            p.field<std::set<std::string>>(kPaths[n], "tests")};
    if (tested.count == 0)
      throw InputError(p.name("count") + ": a listed window ran at least once");
    if (!f.kPaths.emplace(ids, tested).second)
      throw InputError(p.name("ids") + ": listed twice");
  }
}

} // namespace

CorpusFunction readCorpusFunction(const JsonPath &at, const nlohmann::json &j,
                                  std::vector<uint64_t> &fieldPathIds) {
  CorpusFunction f;
  try {
    f.metadata = parseFunctionMetadata(j);
  } catch (const InputError &e) {
    throw InputError(at.where() + ": " + e.what());
  }
  fieldPathIds.clear();
  if (!f.metadata.skipped.empty())
    return f;
  f.calls = at.field<uint64_t>(j, "calls");
  f.resumes = at.optionalField<uint64_t>(j, "resumes", 0);
  f.interrupted = at.field<uint64_t>(j, "interrupted");
  f.invalidIds = at.field<uint64_t>(j, "invalid_ids");
  f.dropped = at.field<uint64_t>(j, "dropped");
  if (f.interrupted > f.calls + f.resumes)
    throw InputError(at.name("interrupted") + ": more than calls and resumes");
  const nlohmann::json &paths = at.field<const nlohmann::json &>(j, "paths");
  if (!paths.is_array())
    throw InputError(at.name("paths") + ": expected an array");
  for (size_t k = 0; k < paths.size(); ++k) {
    const JsonPath p = at.at("paths").index(k);
    const uint64_t id = p.field<uint64_t>(paths[k], "id");
    f.metadata.requirePath(id, p.name("id"));
    const TestedPath tested{p.field<uint64_t>(paths[k], "count"),
                            p.field<std::set<std::string>>(paths[k], "tests")};
    if (tested.count == 0)
      throw InputError(p.name("count") + ": a listed path ran at least once");
    if (!f.paths.emplace(id, tested).second)
      throw InputError(p.name("id") + ": path " + std::to_string(id) +
                       " is listed twice");
  }
  readKPaths(at, j, f);
  const auto field =
      at.optionalField<std::vector<nlohmann::json>>(j, "field_paths", {});
  for (size_t k = 0; k < field.size(); ++k) {
    const JsonPath p = at.at("field_paths").index(k);
    const uint64_t id = p.field<uint64_t>(field[k], "id");
    f.metadata.requirePath(id, p.name("id"));
    if (!field[k].is_object() || !field[k].contains("seen"))
      throw InputError(p.name("seen") + ": missing");
    fieldPathIds.push_back(id);
  }
  return f;
}

std::string listedTwice(const JsonPath &at, const FieldKey &path,
                        const std::string &report) {
  return at.where() + ": path " + std::to_string(std::get<2>(path)) + " of " +
         std::get<0>(path) + " is listed twice for report " + report;
}

std::string notInReports(const JsonPath &at, const std::string &report) {
  return at.name("report") + ": " + report + " is not in reports";
}

Corpus readCorpus(const nlohmann::json &doc) {
  Corpus corpus;
  readCorpusHeader(doc, corpus);
  const JsonPath top;
  const auto reports =
      top.optionalField<std::vector<nlohmann::json>>(doc, "reports", {});
  for (size_t i = 0; i < reports.size(); ++i) {
    const JsonPath at = top.at("reports").index(i);
    auto [id, report] = readCorpusReport(at, reports[i]);
    if (!corpus.reports.emplace(id, std::move(report)).second)
      throw InputError(at.name("id") + ": report " + id + " is listed twice");
  }
  // One report's sighting of a path, from field_paths[].seen or set_aside.
  const auto addSighting = [&](const JsonPath &at, const FieldKey &path,
                               const nlohmann::json &entry) {
    auto [report, s] = readCorpusSighting(at, entry);
    const auto known = corpus.reports.find(report);
    if (known == corpus.reports.end())
      throw InputError(notInReports(at, report));
    if (modulesNeeded(s.contexts) > known->second.contextModules.size())
      throw InputError(contextsBeyondReport(at, report));
    if (!corpus.field[path].emplace(report, s).second)
      throw InputError(listedTwice(at, path, report));
  };
  const auto setAside =
      top.optionalField<std::vector<nlohmann::json>>(doc, "set_aside", {});
  for (size_t i = 0; i < setAside.size(); ++i) {
    const JsonPath at = top.at("set_aside").index(i);
    addSighting(at, readSetAsidePath(at, setAside[i]), setAside[i]);
  }
  const nlohmann::json &functions =
      top.field<const nlohmann::json &>(doc, "functions");
  if (!functions.is_array())
    throw InputError("functions: expected an array");
  std::vector<uint64_t> fieldPathIds;
  for (size_t i = 0; i < functions.size(); ++i) {
    const nlohmann::json &j = functions[i];
    const JsonPath at = top.at("functions").index(i);
    CorpusFunction f = readCorpusFunction(at, j, fieldPathIds);
    for (size_t k = 0; k < fieldPathIds.size(); ++k) {
      const JsonPath p = at.at("field_paths").index(k);
      const auto seen = p.field<std::vector<nlohmann::json>>(j["field_paths"][k], "seen");
      if (seen.empty())
        throw InputError(p.name("seen") + ": a field path was seen at least once");
      for (size_t n = 0; n < seen.size(); ++n)
        addSighting(p.at("seen").index(n),
                    {f.metadata.identity, f.metadata.checksum, fieldPathIds[k]},
                    seen[n]);
    }
    const FunctionKey key = keyOf(f.metadata);
    if (!corpus.functions.emplace(key, std::move(f)).second)
      throw InputError(at.where() + ": function " + key.first +
                       " is listed twice");
  }
  return corpus;
}

} // namespace pathcov
