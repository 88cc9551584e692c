// Older schema-2 files, in one place. Schema 2 gained fields after its first files were written (a card's
// kernel header, summation, memory traffic and vectorization records with their FLOPs; a cell's ranks,
// oversubscription and finishing time; a measurement's null errors and memory figures written out). A file
// written before one of them lacks it; these functions fill each one in where it is absent with what such a
// file means (the type's default: empty, 0, false, null, one rank, "C++"), so that the readers of schema 2
// read every field strictly. The schema version stays 2: an older file is told by the fields it lacks, and a
// file that has them all is left as it is. A schema-1 file passes here after its own migration
// (schema_v1.hpp). A cell's `remeasured` (cell_result.hpp) is not filled in: it is optional by design, and
// absent means what it means in any file, a cell measured once.
#pragma once

#include <nlohmann/json.hpp>

namespace ladder {

// A schema-2 results document, in place: its cards (`tiers`) and its `cells`.
void complete_results_v2(nlohmann::json& document);

// A schema-2 journal line, in place: the run's header (its cards) or a cell's line.
void complete_journal_line_v2(nlohmann::json& line);

// A version-1 or -2 document, in place (results.json, or a journal's first line): its matrix gains
// `rounds` = 1, since every cell of it ran in one worker; its cells have no `rounds` and keep the rule of
// their time (common/noise/disturbance.hpp). The version-3 migration, the one place it happens.
void migrate_to_v3(nlohmann::json& document);

}  // namespace ladder
