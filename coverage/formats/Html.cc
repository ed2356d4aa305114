// `pathcov report --format html` (docs/report.md): a self-contained HTML
// report in a directory. index.html sums up paths per file and function;
// one page per source file shows the source with per-line counts and
// paths, each function's tested, untested and field-observed paths (each
// highlights its lines when selected), and a picture of its CFG.
#include "ReportFormats.h"

#include "FileIo.h"
#include "Markup.h"
#include "PathText.h"
#include "Percent.h"

#include "pathcov/core/Checked.h"
#include "pathcov/core/LoopTransitions.h"
#include "pathcov/format/InputError.h"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <set>
#include <sstream>

namespace pathcov {

namespace {

// Functions with more paths are left out of the path totals, as pathcov
// gate's default path bound leaves them.
constexpr uint64_t kPathBound = 1000;
constexpr uint64_t kMaxUntestedPaths = 50; // listed per function
constexpr size_t kMaxTransitions = 50;     // tested ones listed per loop

struct HtmlOptions {
  const SourceFiles &sources; // where the source text is read from
  std::string title;
  std::string date;    // when the report was made, as people read it
  std::string command; // the command that made it, as a shell takes it
  const std::map<FieldKey, SourceContexts> &contexts; // of field paths
};

std::string utcText(std::time_t when) {
  std::tm tm{};
  char text[64];
  if (!gmtime_r(&when, &tm) ||
      !std::strftime(text, sizeof text, "%Y-%m-%d %H:%M UTC", &tm))
    return std::to_string(when) + " s since 1970";
  return text;
}

std::string bar(uint64_t part, uint64_t whole) {
  return "<span class=\"bar\"><span style=\"width:" + percentText(part, whole) +
         "\"></span></span> " + percentText(part, whole);
}

// A file that defines no function but has lines on paths (a file included
// into a function's body, a macro's header, a static initializer's line in
// <iostream>) has no paths of its own to count.
constexpr const char *kLinesOnly =
    "no function defined here: its lines are on paths of functions of other "
    "files";

std::string fraction(uint64_t part, uint64_t whole) {
  return std::to_string(part) + "/" + std::to_string(whole);
}

std::string transitionsText(const Loop &loop) {
  return loop.saturated ? "more than 2^64" : std::to_string(loop.transitions);
}

// A function of the report and its anchor ("f3": unique in the report).
struct FunctionView {
  const FunctionProjection *projection = nullptr;
  std::string anchor;
};

// ------------------------------------------------------------ the CFG

std::string blockLabel(const FunctionMetadata &m, const Dag &dag, BlockId b) {
  if (b == dag.entry)
    return "entry";
  if (b == dag.exit)
    return "exit";
  std::string label = "B" + std::to_string(b);
  if (b >= m.blocks.size() || m.blocks[b].lines.empty())
    return label;
  const auto [lo, hi] = std::minmax_element(m.blocks[b].lines.begin(),
                                            m.blocks[b].lines.end());
  label += " L" + std::to_string(*lo);
  if (*hi != *lo)
    label += "-" + std::to_string(*hi);
  if (!m.blocks[b].file.empty())
    label += "*"; // lines of another file (the title says which)
  return label;
}

// The arrowheads every CFG of a page draws with (kStyle's edge classes).
constexpr const char *kCfgMarkers =
    "<svg class=\"markers\" width=\"0\" height=\"0\" aria-hidden=\"true\"><defs>"
    "<marker id=\"pathcov-t\" viewBox=\"0 0 8 8\" refX=\"8\" refY=\"4\" "
    "markerWidth=\"7\" markerHeight=\"7\" orient=\"auto\"><path d=\"M0,0 L8,4 "
    "L0,8 z\" fill=\"#1a7f37\"/></marker><marker id=\"pathcov-u\" viewBox=\"0 0 "
    "8 8\" refX=\"8\" refY=\"4\" markerWidth=\"7\" markerHeight=\"7\" "
    "orient=\"auto\"><path d=\"M0,0 L8,4 L0,8 z\" fill=\"#cf222e\"/></marker>"
    "</defs></svg>\n";

// Blocks in layers by DAG depth (longest path from ENTRY), edges green if
// a tested path takes them, red if none does, dashed if they leave the DAG.
// Colours, strokes and arrowheads come from the page's style (a large
// file's CFGs repeated them on every edge and block: sqlite3.c's page was
// 92 MB). Each block of `file` lists its lines (data-lines), from which
// the page's script highlights a selected path's.
std::string cfgSvg(const FunctionView &v, const std::string &file) {
  const FunctionMetadata &m = v.projection->function->metadata;
  const Cfg &cfg = *m.cfg;
  const Dag &dag = v.projection->numbered.dag;
  std::vector<BlockId> order = dag.reverseTopologicalOrder();
  std::reverse(order.begin(), order.end());
  std::vector<int> depth(cfg.numBlocks(), 0);
  for (BlockId b : order)
    for (DagEdgeId e : dag.out[b])
      depth[dag.edges[e].dst] = std::max(depth[dag.edges[e].dst], depth[b] + 1);
  std::map<int, std::vector<BlockId>> layers;
  for (BlockId b : order)
    layers[depth[b]].push_back(b);
  // Room on the left for edges that skip layers, on the right for edges
  // that go back up.
  const int w = 84, h = 26, gapX = 18, gapY = 42, margin = 12, skipRoom = 48,
            loopRoom = 60;
  size_t widest = 1;
  for (auto &[d, blocks] : layers) {
    std::sort(blocks.begin(), blocks.end());
    widest = std::max(widest, blocks.size());
  }
  const int width =
      2 * margin + skipRoom + static_cast<int>(widest) * (w + gapX) + loopRoom;
  const int height = 2 * margin + static_cast<int>(layers.size()) * (h + gapY);
  std::vector<int> x(cfg.numBlocks(), -1), y(cfg.numBlocks(), -1);
  for (const auto &[d, blocks] : layers) {
    const int row = static_cast<int>(blocks.size()) * (w + gapX) - gapX;
    const int left = margin + skipRoom +
                     (static_cast<int>(widest) * (w + gapX) - gapX - row) / 2;
    for (size_t i = 0; i < blocks.size(); ++i) {
      x[blocks[i]] = left + static_cast<int>(i) * (w + gapX);
      y[blocks[i]] = margin + d * (h + gapY);
    }
  }
  const std::string a = v.anchor;
  std::ostringstream out;
  out << "<svg class=\"cfg\" xmlns=\"http://www.w3.org/2000/svg\" width=\""
      << width << "\" height=\"" << height << "\" viewBox=\"0 0 " << width
      << " " << height << "\" role=\"img\" aria-label=\"CFG of "
      << escapeMarkup(m.name) << "\">\n";
  for (EdgeId e = 0; e < cfg.edges().size(); ++e) {
    const CfgEdge &edge = cfg.edge(e);
    const CfgEdgeRole role = dag.cfgEdgeRole[e];
    if (role == CfgEdgeRole::Unreachable || x[edge.src] < 0 || x[edge.dst] < 0)
      continue;
    const bool tested = v.projection->edgeRuns[e] > 0;
    const int sx = x[edge.src] + w / 2, sy = y[edge.src] + h;
    const int dx = x[edge.dst] + w / 2, dy = y[edge.dst];
    out << "<path class=\"edge " << (tested ? "tested" : "untested")
        << (role == CfgEdgeRole::InDag ? "" : " leaves") << "\" d=\"";
    if (depth[edge.dst] == depth[edge.src] + 1) {
      out << "M" << sx << "," << sy << " L" << dx << "," << dy;
    } else if (depth[edge.dst] > depth[edge.src]) {
      // Skips layers: around the left of the boxes in between.
      const int lx = x[edge.src], ly = y[edge.src] + h / 2;
      const int tx = x[edge.dst], ty = y[edge.dst] + h / 2;
      const int bend = std::max(
          4, std::min(lx, tx) - 24 - 6 * (depth[edge.dst] - depth[edge.src]));
      out << "M" << lx << "," << ly << " C" << bend << "," << ly << " "
          << bend << "," << ty << " " << tx << "," << ty;
    } else { // upwards or sideways: around the right of the boxes
      const int rx = x[edge.src] + w, ry = y[edge.src] + h / 2;
      const int tx = x[edge.dst] + w, ty = y[edge.dst] + h / 2;
      const int bend = std::max(rx, tx) + 30 + (rx == tx ? 0 : 10);
      out << "M" << rx << "," << ry << " C" << bend << "," << ry << " "
          << bend << "," << ty << " " << tx << "," << ty;
    }
    out << "\"><title>B" << edge.src << " -&gt; B" << edge.dst << " ("
        << edgeKindName(edge.kind) << ", " << cfgEdgeRoleName(role) << "): "
        << (tested ? "tested" : "untested") << "</title></path>\n";
  }
  for (BlockId b : order) {
    const bool endpoint = b == dag.entry || b == dag.exit;
    const std::string label = blockLabel(m, dag, b);
    std::string lines;
    if (!endpoint && b < m.blocks.size() && blockFile(m, b) == file)
      for (int line : std::set<int>(m.blocks[b].lines.begin(), m.blocks[b].lines.end()))
        lines += (lines.empty() ? "" : " ") + std::to_string(line);
    out << "<g id=\"" << a << "-b" << b << "\" class=\"block "
        << (endpoint                        ? "end"
            : v.projection->blockRuns[b] > 0 ? "ran"
                                             : "unrun")
        << "\"" << (lines.empty() ? "" : " data-lines=\"" + lines + "\"")
        << "><rect x=\"" << x[b] << "\" y=\"" << y[b] << "\" width=\"" << w
        << "\" height=\"" << h << "\"/><text x=\"" << x[b] + w / 2 << "\" y=\""
        << y[b] + h / 2 + 4 << "\">" << escapeMarkup(label) << "</text>";
    // The label says the lines; a block of another file, which.
    if (!endpoint && b < m.blocks.size() && !m.blocks[b].file.empty())
      out << "<title>" << escapeMarkup(label + " (" + m.blocks[b].file + ")")
          << "</title>";
    out << "</g>\n";
  }
  out << "</svg>";
  return out.str();
}

// ------------------------------------------------------------ the pages

constexpr const char *kStyle = R"(<style>
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#1f2328}
h1{font-size:1.4em}h2{font-size:1.2em;margin-top:1.6em}h3{font-size:1.05em}
table{border-collapse:collapse}
td,th{padding:2px 8px;text-align:left;vertical-align:top}
th{background:#f6f8fa;border-bottom:1px solid #d0d7de}
.num{text-align:right;font-variant-numeric:tabular-nums}
.bar{display:inline-block;width:90px;height:9px;background:#ffcecb;vertical-align:middle}
.bar span{display:block;height:100%;background:#2da44e}
.note{color:#57606a}
table.src{font:12px/1.35 monospace;width:100%}
table.src td{padding:0 6px;white-space:pre}
table.src td:first-child{color:#8c959f;text-align:right;user-select:none}
table.src td:nth-child(2),table.src td:nth-child(3){text-align:right;font-variant-numeric:tabular-nums}
tr.hit td:nth-child(2),tr.hit td:nth-child(3){background:#dafbe1}
tr.miss td:nth-child(2),tr.miss td:nth-child(3){background:#ffebe9}
tr.on td{background:#fff8c5 !important}
ul.paths{font:12px/1.5 monospace;list-style:none;padding-left:0}
ul.paths li{padding:0 4px}ul.paths li.on{background:#fff8c5;outline:1px solid #d4a72c}
ul.untested a{color:#cf222e}ul.tested a,li.tested a{color:#1a7f37}li.residual a{color:#9a6700}
svg.markers{position:absolute}
svg.cfg{border:1px solid #d0d7de;background:#fff;font:11px monospace}
svg.cfg text{text-anchor:middle}
svg.cfg path.edge{fill:none;stroke-width:1.6}
path.edge.tested{stroke:#1a7f37;marker-end:url(#pathcov-t)}
path.edge.untested{stroke:#cf222e;marker-end:url(#pathcov-u)}
path.edge.leaves{stroke-dasharray:5,3}
g.block rect{rx:4px;stroke:#57606a}
g.end rect{fill:#eaeef2}g.ran rect{fill:#dafbe1}g.unrun rect{fill:#ffebe9}
g.block.on rect{stroke:#d4a72c;stroke-width:3}
.fn{border-top:1px solid #d0d7de;margin-top:1.5em}
.split{display:flex;flex-wrap:wrap;gap:0 24px;align-items:flex-start}
.split>.source{flex:1 1 560px;min-width:0;overflow-x:auto}
.split>.functions{flex:1 1 440px;min-width:0;position:sticky;top:0;max-height:100vh;overflow:auto}
.cols{display:flex;flex-wrap:wrap;gap:2em;align-items:flex-start}.cols>div:first-child{flex:1 1 320px;min-width:0}
ul.paths li{overflow-wrap:anywhere}
table.transitions{font:12px/1.5 monospace}
table.transitions td{overflow-wrap:anywhere}
</style>
)";

// Selecting a path (its #anchor) highlights its lines and blocks.
constexpr const char *kScript = R"(<script>
function pathcovShow(id) {
  document.querySelectorAll('.on').forEach(function (e) { e.classList.remove('on'); });
  var p = id && document.getElementById(id);
  var fn = p && p.dataset.blocks !== undefined && /^(f\d+)-p\d+$/.exec(id);
  if (!fn) return;
  p.classList.add('on');
  p.dataset.blocks.split(' ').forEach(function (b) {
    var g = b && document.getElementById(fn[1] + '-b' + b);
    if (!g) return;
    g.classList.add('on');
    (g.dataset.lines || '').split(' ').forEach(function (l) {
      var r = l && document.getElementById('L' + l);
      if (r) r.classList.add('on');
    });
  });
}
window.addEventListener('hashchange', function () { pathcovShow(location.hash.slice(1)); });
window.addEventListener('DOMContentLoaded', function () {
  // ?path=ID selects a path without scrolling to it (for screenshots).
  pathcovShow(location.hash.slice(1) || new URLSearchParams(location.search).get('path'));
});
</script>
)";

std::string pageStart(const std::string &title) {
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         "<title>" + escapeMarkup(title) + "</title>\n" + kStyle + kScript +
         "</head>\n<body>\n";
}

const char *kPageEnd = "</body>\n</html>\n";

// A file name as a page name: letters, digits, '.', '_', '-'; unique.
std::map<std::string, std::string>
pageNames(const std::map<std::string, FileProjection> &files) {
  std::map<std::string, std::string> names;
  std::set<std::string> taken{"index"};
  for (const auto &[file, projection] : files) {
    std::string base;
    for (char c : file.substr(file.find_first_not_of('/') == std::string::npos
                                  ? 0
                                  : file.find_first_not_of('/')))
      base += isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-'
                  ? c
                  : '_';
    if (base.size() > 100)
      base = base.substr(base.size() - 100);
    std::string name = base;
    for (int i = 2; taken.count(name); ++i)
      name = base + "-" + std::to_string(i);
    taken.insert(name);
    names[file] = name + ".html";
  }
  return names;
}

struct PathCounts {
  uint64_t tested = 0, total = 0, above = 0; // above: functions over bound
};

PathCounts countPaths(const std::vector<const FunctionProjection *> &functions,
                      uint64_t bound) {
  PathCounts c;
  for (const FunctionProjection *p : functions) {
    const CorpusFunction &f = *p->function;
    if (f.metadata.numPaths > bound) {
      ++c.above;
      continue;
    }
    c.tested += f.paths.size();
    c.total += f.metadata.numPaths;
  }
  return c;
}

std::pair<uint64_t, uint64_t> lineCounts(const std::map<int, uint64_t> &lines) {
  uint64_t hit = 0;
  for (const auto &[line, count] : lines)
    hit += count > 0;
  return {hit, lines.size()};
}

std::string indexPage(const Corpus &corpus, const CorpusProjection &p,
                      const std::map<std::string, std::string> &pages,
                      const std::vector<FunctionView> &views,
                      const FieldRuns &field, const HtmlOptions &options) {
  std::vector<const FunctionProjection *> all;
  for (const FunctionProjection &f : p.functions)
    all.push_back(&f);
  const PathCounts total = countPaths(all, kPathBound);
  uint64_t lines = 0, linesHit = 0;
  for (const auto &[name, file] : p.files) {
    const auto [hit, count] = lineCounts(file.lines);
    linesHit += hit;
    lines += count;
  }
  std::ostringstream out;
  out << pageStart(options.title) << "<h1>" << escapeMarkup(options.title)
      << "</h1>\n<p class=\"note\" id=\"made\">" << escapeMarkup(options.date)
      << ", by <code>" << escapeMarkup(options.command) << "</code></p>\n"
      << "<table class=\"summary\" id=\"summary\">\n"
      << "<tr><th>Paths tested (functions with at most " << kPathBound
      << " paths)</th><td class=\"num\" id=\"paths\">"
      << fraction(total.tested, total.total) << "</td><td>"
      << bar(total.tested, total.total) << "</td></tr>\n"
      << "<tr><th>Functions above the path bound</th><td class=\"num\">"
      << total.above << "</td><td></td></tr>\n"
      << "<tr><th>Instrumented functions</th><td class=\"num\" "
         "id=\"functions\">"
      << p.functions.size() << "</td><td class=\"note\">"
      << p.skipped.size() << " not instrumented</td></tr>\n"
      << "<tr><th>Lines run by tested paths</th><td class=\"num\">"
      << fraction(linesHit, lines) << "</td><td>" << bar(linesHit, lines)
      << "</td></tr>\n"
      << "<tr><th>Profiles</th><td class=\"num\">" << corpus.profiles
      << "</td><td></td></tr>\n";
  // Only for a corpus that field reports were merged into (docs/merge.md).
  if (!field.empty()) {
    uint64_t observed = 0, residual = 0;
    for (const FunctionProjection &f : p.functions)
      if (const auto *runs = fieldRunsOf(field, *f.function)) {
        observed += runs->size();
        residual += untestedFieldPaths(*f.function, runs);
      }
    out << "<tr><th>Field-observed paths</th><td class=\"num\" "
           "id=\"field\">"
        << observed << "</td><td class=\"note\" id=\"residual\">" << residual
        << " never tested</td></tr>\n";
  }
  // Loop transitions, for a corpus recorded with k >= 2 (docs/gate.md).
  uint64_t kFunctions = 0, transitions = 0, testedTransitions = 0,
           loopsAbove = 0;
  for (const FunctionProjection &f : p.functions) {
    if (f.function->metadata.k < 2)
      continue;
    ++kFunctions;
    for (const LoopCoverage &loop : loopTransitionsOf(*f.function, f.numbered).loops)
      if (loop.loop.saturated || loop.loop.transitions > kPathBound) {
        ++loopsAbove;
      } else {
        transitions = saturatingAdd(transitions, loop.loop.transitions);
        testedTransitions = saturatingAdd(testedTransitions, loop.tested.size());
      }
  }
  if (kFunctions)
    out << "<tr><th>Loop transitions tested (loops with at most "
        << kPathBound << ", in " << kFunctions
        << " functions with k-paths)</th><td class=\"num\" "
           "id=\"transitions\">"
        << fraction(testedTransitions, transitions) << "</td><td>"
        << bar(testedTransitions, transitions) << " <span class=\"note\">"
        << loopsAbove << " loops above the bound</span></td></tr>\n";
  out << "</table>\n"
      << "<p class=\"note\">A path is one acyclic run through a function "
         "(Ball-Larus); loops start new paths. Line and branch coverage can "
         "be complete while paths are untested.</p>\n";

  out << "<h2>Files</h2>\n<table id=\"files\">\n<tr><th>File</th>"
         "<th class=\"num\">Functions</th><th class=\"num\">Paths tested</th>"
         "<th>Path coverage</th><th class=\"num\">Lines</th></tr>\n";
  for (const auto &[name, file] : p.files) {
    const PathCounts c = countPaths(file.functions, kPathBound);
    const auto [hit, count] = lineCounts(file.lines);
    out << "<tr><td><a href=\"" << escapeMarkup(pages.at(name)) << "\">" << escapeMarkup(name)
        << "</a></td><td class=\"num\">" << file.functions.size()
        << "</td><td class=\"num\">";
    if (file.functions.empty())
      out << "</td><td class=\"note\">" << kLinesOnly;
    else
      out << fraction(c.tested, c.total) << "</td><td>" << bar(c.tested, c.total);
    out << "</td><td class=\"num\">" << fraction(hit, count) << "</td></tr>\n";
  }
  out << "</table>\n";

  out << "<h2>Functions</h2>\n<table id=\"functions-table\">\n<tr>"
         "<th>Function</th><th>Where</th><th class=\"num\">Calls</th>"
         "<th class=\"num\">Paths tested</th><th>Path coverage</th>"
         "<th class=\"num\">Interrupted</th>"
      << (field.empty() ? "" : "<th class=\"num\">Field, untested</th>")
      << "</tr>\n";
  for (const FunctionView &v : views) {
    const CorpusFunction &f = *v.projection->function;
    const FunctionMetadata &m = f.metadata;
    out << "<tr><td><a href=\"" << escapeMarkup(pages.at(m.file)) << "#" << v.anchor
        << "\">" << escapeMarkup(m.name) << "</a></td><td>" << escapeMarkup(m.file) << ":"
        << m.line << "</td><td class=\"num\">" << f.calls
        << "</td><td class=\"num\">" << fraction(f.paths.size(), m.numPaths)
        << "</td><td>"
        << (m.numPaths > kPathBound
                ? std::string("above the bound")
                : bar(f.paths.size(), m.numPaths))
        << "</td><td class=\"num\">" << f.interrupted << "</td>";
    if (!field.empty())
      out << "<td class=\"num\">"
          << untestedFieldPaths(f, fieldRunsOf(field, f)) << "</td>";
    out << "</tr>\n";
  }
  out << "</table>\n";
  if (!p.skipped.empty()) {
    out << "<h2>Not instrumented</h2>\n<ul>\n";
    for (const CorpusFunction *f : p.skipped)
      out << "<li>" << escapeMarkup(f->metadata.name) << " (" << escapeMarkup(f->metadata.file)
          << ":" << f->metadata.line << "): " << escapeMarkup(f->metadata.skipped)
          << "</li>\n";
    out << "</ul>\n";
  }
  out << kPageEnd;
  return out.str();
}

// One path as a list item: selecting it highlights its blocks, and their
// lines (the CFG's data-lines). `kind` classes the item where its list
// does not say (a field path, tested or not), else "".
std::string pathItem(const FunctionView &v, uint64_t id, const std::string &kind,
                     const std::string &detail) {
  const FunctionMetadata &m = v.projection->function->metadata;
  const PathDescription p = describePath(m, v.projection->numbered, id);
  std::string blocks;
  for (const PathStep &step : p.steps)
    blocks += (blocks.empty() ? "" : " ") + std::to_string(step.block);
  const std::string anchor = v.anchor + "-p" + std::to_string(id);
  return "<li id=\"" + anchor + "\"" +
         (kind.empty() ? "" : " class=\"" + kind + "\"") + " data-blocks=\"" +
         blocks + "\"><a href=\"#" + anchor + "\">path " + std::to_string(id) +
         "</a> " + escapeMarkup(detail) + ": " + escapeMarkup(pathText(m, p)) +
         "</li>\n";
}

// A field path's calling contexts (docs/residual-mode.md), folded.
std::string contextsItem(const SourceContexts &contexts,
                         const std::string &function) {
  std::ostringstream out;
  out << "<li class=\"contexts\"><details><summary>calling contexts ("
      << contexts.samples << (contexts.samples == 1 ? " sample" : " samples")
      << ")</summary><ol>\n";
  for (const SourceContext &c : contexts.kept)
    out << "<li>" << countText(c) << ": "
        << escapeMarkup(contextText(c, function)) << "</li>\n";
  out << "</ol></details></li>\n";
  return out.str();
}

// Per loop of a function recorded with k >= 2: its header line, how many
// of its 2-iteration transitions the tests ran, and which (the two paths,
// each linking to its entry in the tested paths, and the runs).
std::string loopsSection(const FunctionView &v) {
  const CorpusFunction &f = *v.projection->function;
  const FunctionMetadata &m = f.metadata;
  if (f.metadata.k < 2)
    return "";
  const TransitionCoverage c = loopTransitionsOf(*v.projection->function, v.projection->numbered);
  if (c.loops.empty())
    return "";
  std::ostringstream out;
  out << "<h3>Loop transitions (" << c.loops.size()
      << (c.loops.size() == 1 ? " loop" : " loops") << ", k=" << f.metadata.k
      << ")</h3>\n<p class=\"note\">A transition is a path that ends at a "
         "loop's back edge followed by a path that starts at its header: "
         "two iterations in a row.";
  if (f.kDropped)
    out << " " << f.kDropped
        << " paths were dropped (the runtime's arena was full): some "
           "transitions that ran may be missing.";
  if (!c.other.empty())
    out << " " << c.other.size()
        << " windows of two paths joined elsewhere than at a back edge (a "
           "computed goto, a handler) are no loop's.";
  out << "</p>\n";
  std::map<uint64_t, PathDescription> described;
  const auto cell = [&](uint64_t id) {
    auto d = described.find(id);
    if (d == described.end())
      d = described.emplace(id, describePath(m, v.projection->numbered, id)).first;
    const std::string anchor = v.anchor + "-p" + std::to_string(id);
    return "<td><a href=\"#" + anchor + "\">path " + std::to_string(id) +
           "</a> " + escapeMarkup(pathText(m, d->second)) + "</td>";
  };
  // In source order: by their headers' first lines.
  std::vector<const LoopCoverage *> loops;
  for (const LoopCoverage &loop : c.loops)
    loops.push_back(&loop);
  const auto firstLine = [&m](BlockId h) {
    return h < m.blocks.size() && !m.blocks[h].lines.empty()
               ? m.blocks[h].lines.front()
               : INT_MAX;
  };
  std::stable_sort(loops.begin(), loops.end(),
                   [&](const LoopCoverage *a, const LoopCoverage *b) {
                     return firstLine(a->loop.header) < firstLine(b->loop.header);
                   });
  for (const LoopCoverage *each : loops) {
    const LoopCoverage &loop = *each;
    const BlockId h = loop.loop.header;
    std::string where = "block " + std::to_string(h);
    if (h < m.blocks.size() && !m.blocks[h].lines.empty())
      where = "line " + (m.blocks[h].file.empty() ? "" : m.blocks[h].file + ":") +
              std::to_string(m.blocks[h].lines.front());
    const std::string id = v.anchor + "-loop" + std::to_string(h);
    out << "<div class=\"loop\" id=\"" << id << "\">\n<h4>Loop at "
        << escapeMarkup(where) << " <span class=\"note\">header B" << h
        << "</span></h4>\n<p><span class=\"num\" id=\"" << id
        << "-tested\">" << loop.tested.size() << "/"
        << transitionsText(loop.loop) << "</span> transitions tested "
        << bar(loop.tested.size(), loop.loop.transitions) << "</p>\n";
    if (loop.tested.empty()) {
      out << "<p class=\"note\">No two iterations ran in a row.</p>\n</div>\n";
      continue;
    }
    // Most runs first.
    std::vector<std::pair<const PathPair *, const TestedPath *>> rows;
    for (const PathPair &pair : loop.tested)
      rows.emplace_back(&pair, &f.kPaths.at({pair.first, pair.second}));
    std::stable_sort(rows.begin(), rows.end(), [](const auto &a, const auto &b) {
      return a.second->count > b.second->count;
    });
    out << "<table class=\"transitions\">\n<tr><th>Iteration</th>"
           "<th>Next iteration</th><th class=\"num\">Runs</th>"
           "<th>Tests</th></tr>\n";
    for (size_t i = 0; i < rows.size() && i < kMaxTransitions; ++i) {
      std::string tests;
      for (const std::string &t : rows[i].second->tests)
        tests += (tests.empty() ? "" : ", ") + t;
      out << "<tr>" << cell(rows[i].first->first) << cell(rows[i].first->second)
          << "<td class=\"num\">" << rows[i].second->count << "</td><td>"
          << escapeMarkup(tests) << "</td></tr>\n";
    }
    out << "</table>\n";
    if (rows.size() > kMaxTransitions)
      out << "<p class=\"note\">" << rows.size() - kMaxTransitions
          << " more</p>\n";
    out << "</div>\n";
  }
  return out.str();
}

std::string functionSection(const FunctionView &v, const std::string &file,
                            const FieldRuns &field,
                            const std::map<FieldKey, SourceContexts> &contexts) {
  const CorpusFunction &f = *v.projection->function;
  const FunctionMetadata &m = f.metadata;
  std::ostringstream out;
  out << "<div class=\"fn\" id=\"" << v.anchor << "\">\n<h2>" << escapeMarkup(m.name)
      << " <span class=\"note\">line " << m.line << "</span></h2>\n<p>"
      << fraction(f.paths.size(), m.numPaths) << " paths tested "
      << bar(f.paths.size(), m.numPaths) << "; " << f.calls << " calls, "
      << f.interrupted << " interrupted paths; checksum "
      << escapeMarkup(m.checksum) << "</p>\n<div class=\"cols\">\n<div>\n";

  out << "<h3>Tested paths (" << f.paths.size() << ")</h3>\n"
      << "<ul class=\"paths tested\">\n";
  for (const auto &[id, tested] : f.paths) {
    std::string tests;
    for (const std::string &t : tested.tests)
      tests += (tests.empty() ? "" : ", ") + t;
    out << pathItem(v, id, "",
                    "ran " + std::to_string(tested.count) + "x" +
                        (tests.empty() ? "" : ", tests: " + tests));
  }
  out << "</ul>\n";

  const uint64_t untested = m.numPaths - f.paths.size();
  out << "<h3>Untested paths (" << untested << ")</h3>\n"
      << "<ul class=\"paths untested\">\n";
  uint64_t listed = 0;
  for (uint64_t id = 0; id < m.numPaths && listed < kMaxUntestedPaths;
       ++id)
    if (!f.paths.count(id)) {
      out << pathItem(v, id, "", "never run");
      ++listed;
    }
  out << "</ul>\n";
  if (untested > listed)
    out << "<p class=\"note\">" << untested - listed << " more</p>\n";

  const auto found = field.find(keyOf(m));
  if (found != field.end()) {
    out << "<h3>Field-observed paths (" << found->second.size() << ")</h3>\n"
        << "<ul class=\"paths field\">\n";
    for (const auto &[id, runs] : found->second) {
      const bool tested = f.paths.count(id) > 0;
      out << pathItem(v, id, tested ? "tested" : "residual",
                      "ran " + std::to_string(runs) + "x in the field, " +
                          (tested ? "tested" : "never tested"));
      const auto context = contexts.find({m.identity, m.checksum, id});
      if (context != contexts.end() && !context->second.kept.empty())
        out << contextsItem(context->second, m.name);
    }
    out << "</ul>\n";
  }
  out << loopsSection(v);
  out << "</div>\n<div>\n<h3>Control-flow graph</h3>\n" << cfgSvg(v, file)
      << "\n<p class=\"note\">Green: taken by a tested path; red: by none; "
         "dashed: leaves the DAG (loop back edge, cut, abnormal).</p>\n"
      << "</div>\n</div>\n</div>\n";
  return out.str();
}

std::string filePage(const std::string &name,
                     const FileProjection &file,
                     const std::vector<FunctionView> &views,
                     const FieldRuns &field, const HtmlOptions &options) {
  static const std::vector<std::string> kUnreadable;
  const std::vector<std::string> *readable =
      options.sources.lines(name, file.sourceRoot);
  const std::vector<std::string> &source = readable ? *readable : kUnreadable;
  int last = static_cast<int>(source.size());
  if (!file.lines.empty())
    last = std::max(last, file.lines.rbegin()->first);

  const PathCounts c = countPaths(file.functions, kPathBound);
  std::ostringstream out;
  out << pageStart(name + " - " + options.title) << "<p><a href=\"index.html\">"
      << "&larr; " << escapeMarkup(options.title) << ": all files</a> <span "
      << "class=\"note\">" << escapeMarkup(options.date) << "</span></p>\n<h1>" << escapeMarkup(name) << "</h1>\n<p>";
  if (file.functions.empty())
    out << kLinesOnly << ".</p>\n";
  else
    out << fraction(c.tested, c.total) << " paths tested "
        << bar(c.tested, c.total) << " in " << file.functions.size()
        << " functions. Select a path to highlight its lines and blocks.</p>\n";
  out << kCfgMarkers;
  if (!file.functions.empty()) {
    out << "<ul>\n";
    for (const FunctionProjection *f : file.functions)
      for (const FunctionView &v : views)
        if (v.projection == f)
          out << "<li><a href=\"#" << v.anchor << "\">"
              << escapeMarkup(f->function->metadata.name) << "</a> "
              << fraction(f->function->paths.size(),
                          f->function->metadata.numPaths)
              << "</li>\n";
    out << "</ul>\n";
  }
  // The annotated source first, as gcovr has it, with the functions' paths
  // beside it (kept in view while the source scrolls), so that a selected
  // path's lines light up next to the list it was selected from.
  out << "<div class=\"split\">\n<div class=\"source\">\n<h2>Source</h2>\n";
  if (source.empty())
    out << "<p class=\"note\" id=\"no-source\">The source file could not be "
           "read: line numbers only.</p>\n";
  out << "<table class=\"src\">\n<tr><th>Line</th><th>Runs</th>"
         "<th>Paths tested/all</th><th>Source</th></tr>\n";
  for (int line = 1; line <= last; ++line) {
    const auto count = file.lines.find(line);
    const auto lp = file.linePaths.find(line);
    out << "<tr id=\"L" << line << "\""
        << (count == file.lines.end() ? ""
            : count->second ? " class=\"hit\""
                            : " class=\"miss\"")
        << "><td>" << line << "</td><td>"
        << (count == file.lines.end() ? "" : std::to_string(count->second))
        << "</td><td>"
        << (lp == file.linePaths.end() ? ""
                                       : fraction(lp->second.tested, lp->second.total))
        << "</td><td>"
        << (line <= static_cast<int>(source.size()) ? escapeMarkup(source[line - 1]) : "")
        << "</td></tr>\n";
  }
  out << "</table>\n</div>\n<div class=\"functions\">\n";
  for (const FunctionProjection *f : file.functions)
    for (const FunctionView &v : views)
      if (v.projection == f)
        out << functionSection(v, name, field, options.contexts);
  out << "</div>\n</div>\n" << kPageEnd;
  return out.str();
}

} // namespace

int writeHtml(const ReportInput &input, const std::string &dir) {
  const CorpusProjection &projection = input.projection;
  const HtmlOptions options{input.sources, input.settings.title,
                            utcText(input.settings.made),
                            input.settings.command, input.contexts};
  std::error_code error;
  std::filesystem::create_directories(dir, error);
  if (error)
    return reportError("report", dir,
                       "cannot create directory: " + error.message(),
                       kExitOutputError);
  std::vector<FunctionView> views;
  for (size_t i = 0; i < projection.functions.size(); ++i)
    views.push_back({&projection.functions[i], "f" + std::to_string(i)});
  const std::map<std::string, std::string> pages = pageNames(projection.files);
  // Each page is replaced atomically, the index last: a browser never
  // follows it to a page not yet written, though until the index is in
  // place it may show the previous report's.
  const std::string prefix = dir + "/";
  for (const auto &[name, file] : projection.files)
    if (int code =
            writeOutput("report", prefix + pages.at(name),
                        filePage(name, file, views, input.field, options)))
      return code;
  return writeOutput("report", prefix + "index.html",
                     indexPage(input.corpus, projection, pages, views,
                               input.field, options));
}

} // namespace pathcov
