#include "journal.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "atomic_file.hpp"
#include "emulation_check.hpp"
#include "errors.hpp"
#include "json_reader.hpp"
#include "optional_json.hpp"
#include "quote.hpp"
#include "schema_v1.hpp"
#include "schema_v2.hpp"

namespace ladder {

using nlohmann::json;

void to_json(json& out, const JournalHeader& header) {
  out = {{"kind", "run"},
         {"schema_version", header.schema_version},
         {"started", header.started},
         {"label", header.label},
         {"preset", header.preset},
         {"command_line", header.command_line},
         {"load_average_before", optional_json(header.load_average_before)},
         {"matrix", header.matrix.to_json()},
         {"context", header.context},
         {"tiers", header.tiers},
         {"instructions", header.instructions},
         {"limits", header.limits}};
  if (header.budget) out["budget"] = *header.budget;
}

JournalHeader read_journal_header(const JsonReader& in) {
  JournalHeader header;
  header.schema_version = in.at("schema_version").small_integer();
  header.started = in.at("started").string();
  header.label = in.at("label").string();
  header.preset = in.at("preset").string();
  header.command_line = in.at("command_line").string();
  if (const auto loads = in.at("load_average_before"); !loads.is_null())
    header.load_average_before = loads.numbers();
  header.matrix = Matrix::from_json(in.at("matrix"));
  header.context = read_machine_context(in.at("context"));
  for (const auto& card : in.at("tiers").elements()) header.tiers.push_back(read_card_record(card));
  if (const auto budget = in.find("budget")) header.budget = read_budget_record(*budget);
  header.instructions = read_instruction_counts(in.at("instructions"));
  if (const auto limits = in.find("limits")) header.limits = read_machine_limits(*limits);
  return header;
}

void to_json(json& out, const ResumeRecord& record) {
  out = {{"kind", "resume"},
         {"at", record.at},
         {"host_name", record.host_name},
         {"command_line", record.command_line}};
}

namespace {

// A cell's line joins the journal's cells, but one that measured a cell again (it carries `remeasured`) or
// adds a round to it (it carries more than one round) takes the place of the cell's record before it, when
// that record is whole (it describes the cell it names) and has had fewer rounds, or as many and fewer tries.
// Any other line is added as it is, for the runner to judge: a cell that comes twice, or a record that names
// another cell than it describes, is refused there, naming the cell.
void add_cell(std::vector<CellResult>& cells, CellResult record) {
  const auto earlier = std::find_if(cells.rbegin(), cells.rend(), [&](const CellResult& cell) {
    return cell.name == record.name && cell_name(cell) == cell.name;
  });
  // A later round of a cell, or a re-measurement, carries more rounds or more tries than the record before
  // it.
  const auto progress = [](const CellResult& cell) {
    return std::make_pair(cell.rounds.size(), cell.remeasured ? cell.remeasured->attempts : 0);
  };
  if (earlier != cells.rend() && progress(record) > progress(*earlier) &&
      (record.rounds.size() > 1 || record.remeasured))
    *earlier = std::move(record);
  else
    cells.push_back(std::move(record));
}

}  // namespace

Journal read_journal(const std::string& path, bool repair) {
  std::error_code missing;
  if (!std::filesystem::exists(path, missing))
    throw InputError("'" + path + "' does not exist: the directory holds no Ladder run to resume");
  const std::string contents = read_whole_file(path, "journal");
  // A kill while a line was being written leaves it without its newline: that cell did not finish.
  // It is cut off only once every complete line has been read: a damaged journal is refused unchanged.
  const auto complete = contents.rfind('\n') == std::string::npos ? 0 : contents.rfind('\n') + 1;
  Journal journal;
  std::int64_t schema = 0;  // the header's, once read
  std::istringstream lines(contents.substr(0, complete));
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) {
    const std::string where = "line " + std::to_string(number);
    json parsed = parse_json_document(line, "journal '" + quote_text(path) + "' " + where);
    if (parsed.is_discarded() || !parsed.is_object())
      throw InputError("'" + path + "' is not a Ladder journal (" + where + " is not a JSON object)");
    if (schema == 1) migrate_journal_line_v1(parsed);
    if (schema != 0) complete_journal_line_v2(parsed);
    try {
      const JsonReader reader(parsed, where);
      if (!journal.header) {
        if (reader.string_or("kind", "") != "run")
          throw InputError("'" + path + "' is not a Ladder journal (its first line does not describe a run)");
        const auto version = reader.at("schema_version");
        if (!version.raw().is_number_integer() || version.integer() < 1 ||
            version.integer() > results_schema_version)
          throw InputError("'" + path + "' has results schema version " + quote_value(version.raw()) +
                           "; this Ladder reads versions 1 to " + std::to_string(results_schema_version));
        schema = version.integer();
        if (schema == 1) migrate_journal_line_v1(parsed);
        complete_journal_line_v2(parsed);
        if (schema < 3) migrate_to_v3(parsed);
        journal.header = read_journal_header(JsonReader(parsed, where));
        continue;
      }
      const std::string kind = reader.at("kind").string();
      if (kind == "cell")
        add_cell(journal.cells, read_cell_result(reader));
      else if (kind == "resume")
        journal.resumptions.push_back(
            {reader.at("at").string(), reader.at("host_name").string(), reader.at("command_line").string()});
      else
        reader.at("kind").fail("'" + kind + "' is neither \"cell\" nor \"resume\"");
    } catch (const SchemaError& problem) {
      throw InputError("journal '" + path + "' is damaged: " + problem.what());
    }
  }
  if (!journal.header) throw InputError("'" + path + "' is empty: not a Ladder journal");
  if (complete < contents.size() && repair) {
    if (truncate(path.c_str(), static_cast<off_t>(complete)) != 0)
      throw WriteError("cannot repair " + path + ": " + std::strerror(errno));
  }
  return journal;
}

void check_resumable(const JournalHeader& header, const std::string& path, const std::string& dir) {
  const auto damaged = [&](const std::string& why) {
    return InputError("journal '" + quote_text(path) + "' is damaged: its first line's tiers " + why +
                      "; start a new run in another --out");
  };
  std::set<std::string> carded;
  for (const auto& card : header.tiers)
    if (!carded.insert(card.id).second) throw damaged("hold two cards of tier " + quote_value(card.id));
  for (const auto& tier : header.matrix.tiers)
    if (!carded.count(tier))
      throw damaged("hold no card of tier " + quote_value(tier) +
                    ", one of its matrix's (a results file without it is refused by report and pick)");
  check_resume_emulation(header.context.emulation, dir);
}

void append_journal(const std::string& path, const json& line) {
  const std::string text = dump_json(line) + "\n";
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) throw WriteError("cannot append to " + path + ": " + std::strerror(errno));
  const ssize_t written = ::write(fd, text.data(), text.size());
  const int write_error = errno;
  const bool synced = ::fsync(fd) == 0;
  ::close(fd);
  if (written != static_cast<ssize_t>(text.size()) || !synced) {
    // A line cut short is dropped by the next read_journal (and cut off by --resume): nothing is lost.
    throw WriteError(
        "cannot append to " + path + ": " +
        std::strerror(written < 0 || written == static_cast<ssize_t>(text.size()) ? write_error : ENOSPC));
  }
}

}  // namespace ladder
