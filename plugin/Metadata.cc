#include "Metadata.h"

#include "pathcov/format/JsonFields.h"
#include "pathcov/format/TestedPathCache.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <optional>
#include <unistd.h>

namespace pathcov {

namespace {
nlohmann::json withHeader(nlohmann::json record) {
  record["format"] = "pathcov-function";
  record["format_version"] = "1.0";
  return record;
}

std::string text(const nlohmann::json &record) {
  return record.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}
} // namespace

std::string metadataRecord(const FunctionMetadata &function, bool hashed,
                           const PluginOptions &options) {
  nlohmann::json record = withHeader(toJson(function));
  record["counting"] = hashed ? "hashed" : "array";
  record["array_threshold"] = options.arrayThreshold;
  record["atomic"] = options.atomic;
  return text(record);
}

std::string residualRecord(const FunctionMetadata &function,
                           const ResidualPlan &plan,
                           const PluginOptions &options) {
  nlohmann::json record = withHeader(toJson(function));
  record["mode"] = "residual";
  record["atomic"] = options.atomic;
  record["policy"] = residualPolicyName(plan.policy);
  record["tested_ids"] = plan.tested;
  record["count_tested"] = plan.counted;
  if (plan.ppp.intervalSize != 0) {
    record["ppp_interval"] = plan.ppp.intervalSize;
    record["ppp_delta"] = plan.ppp.delta;
  }
  if (plan.policy == ResidualPolicy::Stale)
    record["stale"] = plan.why;
  return text(record);
}

namespace {

// False, with errno set, if `file` cannot be read whole (a directory
// included); never throws.
bool readWholeFile(const std::string &file, std::string &bytes) {
  FILE *in = std::fopen(file.c_str(), "rb");
  if (!in)
    return false;
  bytes.clear();
  char chunk[65536];
  size_t got;
  while ((got = std::fread(chunk, 1, sizeof chunk, in)) > 0)
    bytes.append(chunk, got);
  const int error = std::ferror(in) ? errno : 0;
  std::fclose(in);
  errno = error;
  return error == 0;
}

// Best effort: a cache that cannot be written is simply not there next
// time. Written under a temporary name and renamed, so that parallel
// compilations never read half of one.
void writeCache(const std::string &cache, const std::string &bytes) {
  const std::string temporary = cache + "." + std::to_string(getpid()) + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary);
    if (!out || !out.write(bytes.data(), static_cast<std::streamsize>(bytes.size())))
      return (void)std::remove(temporary.c_str());
  }
  if (std::rename(temporary.c_str(), cache.c_str()) != 0)
    std::remove(temporary.c_str());
}

} // namespace

std::string loadCorpus(const std::string &file, TestedPathIndex &index) {
  std::string bytes;
  if (!readWholeFile(file, bytes))
    return file + ": cannot open: " + std::strerror(errno);
  const uint64_t hash = hashBytes(bytes);
  const std::string cache = file + ".pathcov-cache";
  std::string cached;
  if (readWholeFile(cache, cached))
    if (std::optional<TestedPathIndex> decoded = decodeTestedPathCache(cached, hash)) {
      index = std::move(*decoded);
      return "";
    }
  try {
    index = readTestedPaths(bytes);
  } catch (const InputError &e) {
    return file + ": " + e.what();
  }
  writeCache(cache, encodeTestedPathCache(index, hash));
  return "";
}

std::string skippedRecord(const FunctionMetadata &function) {
  return text(withHeader(toJson(function)));
}

} // namespace pathcov
