#include "CfgJson.h"

#include "pathcov/format/InputError.h"

#include <nlohmann/json.hpp>

#include <unordered_map>
#include <utility>

namespace pathcov {

using nlohmann::json;

namespace {

std::string fieldLocation(const std::string &object, const char *field) {
  return object + "." + field;
}

std::string elementLocation(const std::string &array, size_t index) {
  return array + "[" + std::to_string(index) + "]";
}

// Short enough for a one-line message: scalars as written, containers by
// type.
std::string describe(const json &value) {
  return value.is_primitive() ? value.dump() : value.type_name();
}

[[noreturn]] void fail(const std::string &location,
                       const std::string &problem) {
  throw InputError(location.empty() ? problem : location + ": " + problem);
}

void expect(bool ok, const json &value, const std::string &location,
            const char *expected) {
  if (!ok)
    fail(location,
         std::string("expected ") + expected + ", got " + describe(value));
}

const json &requiredField(const json &object, const std::string &location,
                          const char *field) {
  const auto it = object.find(field);
  if (it == object.end())
    fail(location, std::string("missing field \"") + field + "\"");
  return *it;
}

const std::string &stringAt(const json &value, const std::string &location) {
  expect(value.is_string(), value, location, "a string");
  return value.get_ref<const std::string &>();
}

uint64_t unsignedAt(const json &value, const std::string &location) {
  expect(value.is_number_unsigned(), value, location, "a non-negative integer");
  return value.get<uint64_t>();
}

const json &arrayAt(const json &value, const std::string &location) {
  expect(value.is_array(), value, location, "an array");
  return value;
}

void checkFormat(const json &document) {
  const json &format = requiredField(document, "", "format");
  if (stringAt(format, "format") != kCfgFormat)
    fail("format",
         std::string("expected \"") + kCfgFormat + "\", got " + format.dump());

  // "MAJOR.MINOR": a different major version may mean anything, a newer
  // minor version only adds fields this reader may ignore.
  const std::string &version =
      stringAt(requiredField(document, "", "format_version"), "format_version");
  const size_t dot = version.find('.');
  const auto isNumber = [](const std::string &s) {
    return !s.empty() && s.find_first_not_of("0123456789") == std::string::npos;
  };
  if (dot == std::string::npos || !isNumber(version.substr(0, dot)) ||
      !isNumber(version.substr(dot + 1)))
    fail("format_version", "expected \"MAJOR.MINOR\", got \"" + version + "\"");
  if (version.substr(0, dot) != std::to_string(kCfgFormatMajorVersion))
    fail("format_version", "unsupported version \"" + version +
                               "\" (this pathcov reads " +
                               std::to_string(kCfgFormatMajorVersion) + ".x)");
}

class BlockNames {
public:
  BlockNames(const json &blocks, const std::string &location) {
    arrayAt(blocks, location);
    for (size_t i = 0; i < blocks.size(); ++i) {
      const std::string where = elementLocation(location, i);
      const std::string &name = stringAt(blocks[i], where);
      if (name.empty())
        fail(where, "empty block name");
      const auto id = static_cast<BlockId>(names_.size());
      if (!ids_.emplace(name, id).second)
        fail(where, "duplicate block name \"" + name + "\"");
      names_.push_back(name);
    }
  }

  BlockId idAt(const json &value, const std::string &location) const {
    const std::string &name = stringAt(value, location);
    const auto it = ids_.find(name);
    if (it == ids_.end())
      fail(location, "unknown block \"" + name + "\"");
    return it->second;
  }

  std::vector<std::string> take() { return std::move(names_); }
  uint32_t size() const { return static_cast<uint32_t>(names_.size()); }

private:
  std::vector<std::string> names_;
  std::unordered_map<std::string, BlockId> ids_;
};

void readEdge(const json &edge, const std::string &location,
              const BlockNames &blocks, Cfg &cfg) {
  expect(edge.is_object(), edge, location, "an object");
  const BlockId from = blocks.idAt(requiredField(edge, location, "from"),
                                   fieldLocation(location, "from"));
  const BlockId to = blocks.idAt(requiredField(edge, location, "to"),
                                 fieldLocation(location, "to"));
  const std::string kindLocation = fieldLocation(location, "kind");
  const std::string &kindName =
      stringAt(requiredField(edge, location, "kind"), kindLocation);
  const std::optional<EdgeKind> kind = parseEdgeKind(kindName);
  if (!kind)
    fail(kindLocation, "unknown edge kind \"" + kindName +
                           "\" (expected true, false, fallthru, switch, "
                           "throw, abnormal or fake)");
  uint64_t frequency = 0;
  if (const auto it = edge.find("frequency"); it != edge.end())
    frequency = unsignedAt(*it, fieldLocation(location, "frequency"));
  try {
    cfg.addEdge(from, to, *kind, frequency);
  } catch (const GraphError &e) {
    fail(location, e.what());
  }
}

PathRequest readPathRequest(const json &path, const std::string &location,
                            const BlockNames &blocks) {
  PathRequest request{location, {}, std::nullopt};
  if (path.is_number_unsigned()) {
    request.ballLarusId = path.get<uint64_t>();
    return request;
  }
  expect(path.is_array(), path, location,
         "an array of block names or a Ball-Larus path id");
  for (size_t i = 0; i < path.size(); ++i)
    request.blocks.push_back(
        blocks.idAt(path[i], elementLocation(location, i)));
  return request;
}

Cfg makeCfg(const json &document, const BlockNames &blocks) {
  const BlockId entry =
      blocks.idAt(requiredField(document, "", "entry"), "entry");
  const BlockId exit = blocks.idAt(requiredField(document, "", "exit"), "exit");
  try {
    return Cfg(blocks.size(), entry, exit);
  } catch (const GraphError &e) {
    fail("exit", e.what());
  }
}

} // namespace

CfgInput readCfgJson(const json &document) {
  expect(document.is_object(), document, "", "a JSON object at the top level");
  checkFormat(document);

  std::optional<std::string> function;
  if (const auto it = document.find("function"); it != document.end())
    function = stringAt(*it, "function");

  BlockNames blocks(requiredField(document, "", "blocks"), "blocks");
  Cfg cfg = makeCfg(document, blocks);

  const json &edges = arrayAt(requiredField(document, "", "edges"), "edges");
  for (size_t i = 0; i < edges.size(); ++i)
    readEdge(edges[i], elementLocation("edges", i), blocks, cfg);

  std::vector<PathRequest> interestingPaths;
  if (const auto it = document.find("interesting_paths");
      it != document.end()) {
    const json &paths = arrayAt(*it, "interesting_paths");
    for (size_t i = 0; i < paths.size(); ++i)
      interestingPaths.push_back(readPathRequest(
          paths[i], elementLocation("interesting_paths", i), blocks));
  }

  return {std::move(function), blocks.take(), std::move(cfg),
          std::move(interestingPaths)};
}

} // namespace pathcov
