#include "Contexts.h"

#include "pathcov/format/ProjectPath.h"

#include <algorithm>
#include <sstream>
#include <tuple>

namespace pathcov {

namespace {

bool sameSource(const std::vector<SourceFrame> &a,
                const std::vector<SourceFrame> &b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](const SourceFrame &x, const SourceFrame &y) {
                      return std::tie(x.function, x.file, x.line) ==
                             std::tie(y.function, y.file, y.line);
                    });
}

// A frame no function could be found for: its address and object.
SourceFrame unknownFrame(const ContextFrame &frame,
                         const std::vector<CorpusModule> &modules) {
  std::ostringstream text;
  text << "0x" << std::hex << frame.address;
  if (frame.module)
    text << " in " << modules[*frame.module].path;
  SourceFrame unknown;
  unknown.function = text.str();
  return unknown;
}

std::vector<SourceFrame> symbolizeContext(const CallingContext &context,
                                          const std::vector<CorpusModule> &modules,
                                          Symbolizer &symbolizer,
                                          const std::string &sourceRoot) {
  std::vector<SourceFrame> frames;
  for (size_t k = 0; k < context.frames.size(); ++k) {
    const ContextFrame &frame = context.frames[k];
    std::vector<SourceFrame> found;
    if (frame.module && *frame.module < modules.size()) {
      const CorpusModule &m = modules[*frame.module];
      found = symbolizer.symbolize(m.path, m.buildId, frame.address, k > 0);
    }
    if (found.empty())
      found.push_back(unknownFrame(frame, modules));
    if (k == 0) { // the function's start: its name is what it says
      SourceFrame start;
      start.function = found.back().function;
      start.splitPart = found.back().splitPart;
      found = {start};
    }
    for (SourceFrame &source : found) {
      // A function's head calling the part GCC split off it (NAME.part.N,
      // inlined back or not; the call at the function's first line, or
      // from the part's own code): one function to the reader, not a call
      // of itself (jq's jv_string_sized).
      if (!frames.empty() && source.function == frames.back().function &&
          (frames.back().splitPart ||
           (source.line != 0 && source.line == source.declLine)))
        continue;
      source.file = projectSpelling(source.file, sourceRoot, source.compDir);
      frames.push_back(std::move(source));
    }
  }
  return frames;
}

} // namespace

void addSourceContexts(SourceContexts &into, const CallingContexts &contexts,
                       const std::vector<CorpusModule> &modules,
                       Symbolizer &symbolizer, const std::string &sourceRoot) {
  into.samples += contexts.samples;
  for (const CallingContext &context : contexts.kept) {
    std::vector<SourceFrame> frames =
        symbolizeContext(context, modules, symbolizer, sourceRoot);
    auto same = std::find_if(into.kept.begin(), into.kept.end(),
                             [&](const SourceContext &c) {
                               return sameSource(c.frames, frames);
                             });
    if (same == into.kept.end())
      same = into.kept.insert(same, {0, 0, std::move(frames)});
    same->count += context.count;
    same->error += context.error;
  }
  std::stable_sort(into.kept.begin(), into.kept.end(),
                   [](const SourceContext &a, const SourceContext &b) {
                     return a.count > b.count;
                   });
}

std::map<FieldKey, SourceContexts> fieldContexts(const Corpus &corpus,
                                                 Symbolizer &symbolizer) {
  std::map<FieldKey, SourceContexts> contexts;
  for (const auto &[path, sightings] : corpus.field) {
    const auto function = corpus.functions.find(
        {std::get<0>(path), std::get<1>(path)});
    const std::string sourceRoot = function == corpus.functions.end()
                                       ? ""
                                       : function->second.metadata.sourceRoot;
    for (const auto &[report, s] : sightings) {
      const auto merged = corpus.reports.find(report);
      if (s.contexts.samples && merged != corpus.reports.end())
        addSourceContexts(contexts[path], s.contexts,
                          merged->second.contextModules, symbolizer, sourceRoot);
    }
  }
  return contexts;
}

nlohmann::json toJson(const SourceContexts &contexts) {
  nlohmann::json kept = nlohmann::json::array();
  for (const SourceContext &c : contexts.kept) {
    nlohmann::json frames = nlohmann::json::array();
    for (const SourceFrame &frame : c.frames)
      frames.push_back(
          {{"function", frame.function},
           {"file", frame.file.empty() ? nlohmann::json() : nlohmann::json(frame.file)},
           {"line", frame.line ? nlohmann::json(frame.line) : nlohmann::json()}});
    kept.push_back({{"count", c.count}, {"error", c.error}, {"frames", frames}});
  }
  return {{"samples", contexts.samples}, {"kept", std::move(kept)}};
}

std::string countText(const SourceContext &context) {
  return std::to_string(context.count) +
         (context.error ? " (up to " + std::to_string(context.error) + " fewer)"
                        : "");
}

std::string frameText(const SourceFrame &frame) {
  std::string text = frame.function.empty() ? "??" : frame.function;
  if (!frame.file.empty())
    text += " (" + frame.file +
            (frame.line ? ":" + std::to_string(frame.line) : "") + ")";
  return text;
}

namespace {

// The C library's frames below main and below a thread's start routine:
// the same in every context, so the text leaves them out (the JSON keeps
// every frame).
bool isStartupFrame(const std::string &function) {
  static const char *const kStartup[] = {
      "_start",       "__libc_start_main", "__libc_start_main_impl",
      "__libc_start_call_main", "start_thread", "clone", "__clone",
      "clone3",       "__clone3"};
  return std::find(std::begin(kStartup), std::end(kStartup), function) !=
         std::end(kStartup);
}

} // namespace

std::string contextText(const SourceContext &context,
                        const std::string &function) {
  std::string text;
  const std::string &where = context.frames.front().function;
  if (!where.empty() && where != function)
    text = "in " + where;
  // The first of them stays: main's own caller, a thread's start.
  size_t shown = context.frames.size();
  while (shown > 2 && isStartupFrame(context.frames[shown - 1].function) &&
         isStartupFrame(context.frames[shown - 2].function))
    --shown;
  for (size_t k = 1; k < shown; ++k)
    text += (k == 1 ? (text.empty() ? "called from " : ": called from ")
                    : " <- ") +
            frameText(context.frames[k]);
  // PATHCOV_CONTEXT_DEPTH=1, or code without unwind tables.
  if (context.frames.size() == 1)
    text += text.empty() ? "callers unknown" : ", callers unknown";
  return text;
}

} // namespace pathcov
