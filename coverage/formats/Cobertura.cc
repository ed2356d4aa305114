// Cobertura's XML (coverage-04.dtd): one package per directory, one class
// per file, one method per function, as gcovr writes them.
#include "DecisionLines.h"
#include "ReportFormats.h"

#include "Markup.h"

#include <sstream>

namespace pathcov {

namespace {

struct Totals {
  uint64_t lines = 0, linesHit = 0, conditions = 0, conditionsHit = 0;
  void add(const Totals &o) {
    lines += o.lines;
    linesHit += o.linesHit;
    conditions += o.conditions;
    conditionsHit += o.conditionsHit;
  }
};

std::string rate(uint64_t part, uint64_t whole) {
  std::ostringstream os;
  os.precision(4);
  os << std::fixed << (whole ? static_cast<double>(part) / whole : 1.0);
  return os.str();
}

// "k% (covered/total)" with k rounded down: 100% only when all are covered.
std::string conditionCoverage(const TestedShare &d) {
  const uint64_t total = cappedForJava(d.total);
  const uint64_t covered = std::min(d.tested, total);
  return std::to_string(total ? covered * 100 / total : 100) + "% (" +
         std::to_string(covered) + "/" + std::to_string(total) + ")";
}

Totals totalsOf(const std::map<int, uint64_t> &lines,
                const std::map<int, TestedShare> &decisions) {
  Totals t;
  for (const auto &[line, count] : lines) {
    ++t.lines;
    t.linesHit += count > 0;
  }
  for (const auto &[line, d] : decisions) {
    t.conditions += cappedForJava(d.total);
    t.conditionsHit += std::min(d.tested, cappedForJava(d.total));
  }
  return t;
}

void coberturaLines(std::ostream &out, const std::string &indent,
                    const std::map<int, uint64_t> &lines,
                    const std::map<int, TestedShare> &decisions) {
  out << indent << "<lines>\n";
  for (const auto &[line, count] : lines) {
    out << indent << " <line number=\"" << line << "\" hits=\"" << count
        << "\"";
    const auto d = decisions.find(line);
    if (d == decisions.end())
      out << " branch=\"false\"/>\n";
    else
      out << " branch=\"true\" condition-coverage=\""
          << conditionCoverage(d->second) << "\"/>\n";
  }
  out << indent << "</lines>\n";
}

std::string directoryOf(const std::string &file) {
  const size_t slash = file.rfind('/');
  return slash == std::string::npos ? "" : file.substr(0, slash);
}

// Cobertura's <sources>: the directories its relative file names are
// relative to, the working directory when there are none.
std::string coberturaSources(const CorpusProjection &p, const SourceFiles &sources) {
  std::vector<std::string> recordRoots;
  for (const FunctionProjection &f : p.functions)
    recordRoots.push_back(f.function->metadata.sourceRoot);
  std::vector<std::string> dirs = sources.searchPath(recordRoots);
  if (dirs.empty())
    dirs.push_back(".");
  std::string text = " <sources>\n";
  for (const std::string &dir : dirs)
    text += "  <source>" + escapeMarkup(dir) + "</source>\n";
  return text + " </sources>\n";
}

} // namespace

std::string writeCobertura(const ReportInput &input) {
  const CorpusProjection &p = input.projection;
  // Packages are directories, classes files, as gcovr writes them.
  std::map<std::string, std::vector<const FileProjection *>> packages;
  for (const auto &[name, file] : p.files)
    packages[directoryOf(name)].push_back(&file);
  Totals all;
  std::map<const FileProjection *, Totals> fileTotals;
  std::map<std::string, Totals> packageTotals;
  for (const auto &[package, files] : packages)
    for (const FileProjection *file : files) {
      fileTotals[file] = totalsOf(file->lines, file->decisions);
      packageTotals[package].add(fileTotals[file]);
      all.add(fileTotals[file]);
    }
  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<!DOCTYPE coverage SYSTEM "
         "\"http://cobertura.sourceforge.net/xml/coverage-04.dtd\">\n"
      << "<!-- pathcov: path coverage projected onto lines; "
         "condition-coverage counts "
      << decisionMeaning(input.settings.decisions) << " (docs/report.md) -->\n"
      << "<coverage line-rate=\"" << rate(all.linesHit, all.lines)
      << "\" branch-rate=\"" << rate(all.conditionsHit, all.conditions)
      << "\" lines-covered=\"" << all.linesHit << "\" lines-valid=\""
      << all.lines << "\" branches-covered=\"" << all.conditionsHit
      << "\" branches-valid=\"" << all.conditions
      << "\" complexity=\"0\" version=\"pathcov " PATHCOV_VERSION
         "\" timestamp=\""
      << input.settings.made << "\">\n"
      << coberturaSources(p, input.sources) << " <packages>\n";
  for (const auto &[package, files] : packages) {
    const Totals &t = packageTotals[package];
    out << "  <package name=\"" << escapeMarkup(package.empty() ? "." : package)
        << "\" line-rate=\"" << rate(t.linesHit, t.lines)
        << "\" branch-rate=\"" << rate(t.conditionsHit, t.conditions)
        << "\" complexity=\"0\">\n   <classes>\n";
    for (const FileProjection *file : files) {
      const Totals &ft = fileTotals[file];
      out << "    <class name=\"" << escapeMarkup(file->file) << "\" filename=\""
          << escapeMarkup(file->file) << "\" line-rate=\""
          << rate(ft.linesHit, ft.lines) << "\" branch-rate=\""
          << rate(ft.conditionsHit, ft.conditions)
          << "\" complexity=\"0\">\n     <methods>\n";
      for (const FunctionProjection *f : file->functions) {
        std::map<int, uint64_t> lines;
        std::map<int, TestedShare> decisions;
        for (const auto &[line, count] : f->lines)
          if (line.first == file->file)
            lines[line.second] = count;
        for (const auto &[line, d] : f->decisions)
          if (line.first == file->file)
            decisions[line.second] = d;
        const Totals mt = totalsOf(lines, decisions);
        out << "      <method name=\"" << escapeMarkup(f->function->metadata.name)
            << "\" signature=\"\" line-rate=\""
            << rate(mt.linesHit, mt.lines) << "\" branch-rate=\""
            << rate(mt.conditionsHit, mt.conditions)
            << "\" complexity=\"0\">\n";
        coberturaLines(out, "       ", lines, decisions);
        out << "      </method>\n";
      }
      out << "     </methods>\n";
      coberturaLines(out, "     ", file->lines, file->decisions);
      out << "    </class>\n";
    }
    out << "   </classes>\n  </package>\n";
  }
  out << " </packages>\n</coverage>\n";
  return out.str();
}

} // namespace pathcov
