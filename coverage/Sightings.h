// Residual sightings as rows (newline-delimited JSON, one object per
// line; docs/fleet.md, schemas/sighting.schema.json): what a fleet's
// reports become for an engine that aggregates them (SQLite, DuckDB,
// BigQuery), and what `pathcov merge` reads back into a corpus.
#pragma once

#include "FieldStore.h"
#include "Report.h"

#include "pathcov/format/Corpus.h"

#include <map>
#include <string>
#include <vector>

namespace pathcov {

// A report's residual paths as merged into a corpus: one sighting per path,
// the copies of a function emitted by several units (comdat) added up.
std::map<FieldKey, FieldSighting> reportSightings(const Report &report);

// The rows of one report: one per sighting, or one without a path (its
// path fields null) when it saw none, so that the report itself survives
// the round trip. Each row is one line.
std::string sightingRows(const std::string &id, const MergedReport &report,
                         const std::map<FieldKey, FieldSighting> &sightings);

// Folds the reports the rows of `file` describe, with their sightings, into
// `field` (a report already there changes nothing), reading the rows as it
// goes. Rows repeated exactly (an upload aggregated twice) count once.
// Throws InputError naming the file, the line and the problem: a malformed
// row, a report id that is not its fields', rows of one report that
// disagree.
void foldSightingRows(const std::string &file, FieldStore &field);

} // namespace pathcov
