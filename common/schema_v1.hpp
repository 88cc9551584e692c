// The one migration from results schema 1, in one place. A schema-1 results.json kept its cells only as
// Google Benchmark entries (one a repetition and one an aggregate, regrouped by every reader), and its
// journals and entries kept a cell's thread placement as comma strings. These functions turn such a
// document, or journal line, into schema 2 once; every reader then reads schema 2 only.
#pragma once

#include <nlohmann/json.hpp>

namespace ladder {

// A schema-1 results document as schema 2: its entries regrouped into one CellResult a cell (`cells`), its
// context, cards, instruction counts and `benchmarks` kept as they are. Throws SchemaError naming the field
// of an entry that is missing or of the wrong type, or an ok cell with no repetitions.
nlohmann::json migrate_results_v1(const nlohmann::json& document);

// A schema-1 journal line (the run's first line, or a cell's) as schema 2, in place.
void migrate_journal_line_v1(nlohmann::json& line);

}  // namespace ladder
