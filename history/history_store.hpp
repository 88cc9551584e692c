// The history of runs: every finished run's results kept in one SQLite database, so that a change can be
// followed across commits, compilers and machines. Made from results files, like the report: `ladder run`
// records the results.json it has just written, `ladder history import` the ones already on disk. A team's
// own benchmarks have no results file: `ladder ab --repo` records each side's medians as a run of its own
// (record_measured), under the repository and the commit.
//
// A run is identified by what makes it that run: its host, its start time and its matrix (the seed of its
// cells' order among it), so recording it twice adds nothing, from the same file, a copy written another way
// or the file a `--resume` of the finished run rewrote. Its run id is the SHA-256 of the results.json text it
// was first recorded from. It is keyed by what it was built from and ran on: the checkout's git commit,
// branch and dirty flag and the SHA-256 of each tier's source file; the machine's fingerprint (CPU model,
// logical CPUs, physical cores, sockets/NUMA nodes/L3 groups, memory in GiB); the build's fingerprint
// (compiler, build type, flags), with the library versions beside it; the label and the time. A series (one
// cell's median over runs) never mixes machines or builds: its key holds both fingerprints.
//
// Integrity: WAL mode, a busy timeout (two runs recording at once both land, one after the other), every
// record in one transaction (a writer killed mid-record leaves nothing of its run), a schema version with
// migrations (PRAGMA user_version), and an application id (PRAGMA application_id) so that a file of another
// application, or one that is not SQLite at all, is refused and never written.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cell_coordinates.hpp"
#include "run_context.hpp"
#include "sha256.hpp"

namespace ladder::history {

// "LADR": what PRAGMA application_id holds in a Ladder history database.
constexpr std::int32_t application_id = 0x4C414452;
// The schema this Ladder writes; older databases are migrated to it when opened for writing.
constexpr int schema_version = 6;
// The oldest schema a database is read in without migrating it (reading never writes): version 2's cells
// read with an empty build, versions 2 and 3's with no FLOPs a node, versions 2 to 4 with no noise floors
// measured by `ladder ab` (noise_store.hpp), versions 2 to 5 with no run identity (written only).
constexpr int oldest_readable_version = 2;
// The database when neither --history nor LADDER_HISTORY names one (relative to the working directory).
inline const char* const default_database = "ladder-out/history.sqlite";

// The database to use: `option` (--history) when given, else $LADDER_HISTORY, else default_database.
// InputError for an empty path or a directory, naming it and what is accepted.
std::string database_path(const std::optional<std::string>& option);

// One recorded run, as `ladder history list` shows it.
struct RecordedRun {
  std::string run_id;        // SHA-256 of the results.json text it was first recorded from
  std::string results_path;  // where it was recorded from
  std::string recorded;      // when (UTC, ISO 8601)
  std::string started, finished, label, status;
  std::string git_commit, git_branch, git_dirty;    // "unknown" when not known; dirty: yes, no
  std::map<std::string, std::string> tier_sources;  // source file -> SHA-256 of its text
  std::string machine;                              // the machine's fingerprint (SHA-256, hex)
  std::string host, cpu_model, topology;            // topology: "1 socket, 2 cores, …" or "unknown"
  int logical_cpus = 0, physical_cores = 0;         // physical_cores 0: not recorded
  std::optional<double> memory_total_bytes;
  std::string build_fingerprint;  // SHA-256 (hex) of compiler, build type and flags
  std::string compiler, build_type, common_flags;
  std::map<std::string, std::string> libraries;  // library -> version
  std::vector<std::string> tiers;                // the tiers with cells in the run, sorted
  int cells = 0;
};

// One cell of a recorded run: times are nanoseconds a call (Google Benchmark's real_time).
struct StoredCell : CellCoordinates {
  std::string name;
  // The build it ran in, in a run of several (`--compilers`, `--arch`): "gcc-native"; empty in a run of the
  // build at hand alone and in every cell recorded before builds were a dimension (schema version 2).
  std::string build;
  std::string status, reason;       // status "ok", or why the cell did not run (reason)
  std::vector<double> repetitions;  // real time of each repetition
  std::vector<double> cpu_repetitions;
  std::optional<double> median, min, max, mean, stddev, cv;  // cv: a fraction
  std::optional<double> ns_per_node;                         // of the median
  std::optional<double> peak_heap_bytes, peak_rss_bytes, allocations;
  std::optional<double> rel_error, rounding_error, rounding_bound;
  std::optional<double> instructions_per_node;  // callgrind's, for the tier and integrand, when counted
  std::optional<double> flops_per_node;         // from the same callgrind runs (schema 4; null before)
  std::string tier_source_sha256;               // of the tier's source file in this run; empty: unknown
};

// Which runs `runs` returns; empty fields match everything.
struct RunFilter {
  std::string machine;  // a fingerprint prefix (as `history list` prints it) or a host name
  std::string tier;     // runs with a cell of this tier
  std::string since;    // runs started on or after this date or time ("2026-11-30", ISO 8601, UTC)
};

// One series: a cell's coordinates (its build among them, in a run of several) on one machine with one
// build of the run.
struct SeriesKey : CellCoordinates {
  // Fingerprints: the machine's, the run's build's (compiler, build type, flags).
  std::string machine, build_fingerprint;
  std::string build{};  // the cell's build id ("gcc-native"); empty in a run of one build
  auto operator<=>(const SeriesKey&) const = default;
};

// A series' point: the run it came from and the cell in it.
struct SeriesPoint {
  std::string run_id, started, label, git_commit, git_branch, git_dirty;
  std::string host{};  // the run's host name: a series is of a kind of machine, which hosts may share
  StoredCell cell;
};

// What record() did.
struct Recorded {
  bool added = false;  // false: the run was already there (from this file or another of the same run)
  std::string run_id;  // the recorded run's: when it was already there, the id it has there
  std::size_t cells = 0;
};

class Store {
 public:
  enum class Mode { read, write };
  // Opens the database at `path`. Reading opens it read-only (SQLITE_OPEN_READONLY: never changed, never
  // created); writing creates it (and its directory) when missing and migrates an older schema. Both check
  // it first, the same way: InputError, naming the file, for a file that is not SQLite, a foreign SQLite
  // file (another application_id, or tables of its own), a damaged one (PRAGMA integrity_check, or a table or
  // column of its schema missing), a newer schema, or (reading) a missing file or one that cannot be read;
  // WriteError for one that cannot be written (read-only). A refused file is never modified.
  Store(const std::string& path, Mode mode);
  ~Store();
  Store(Store&&) noexcept;
  Store& operator=(Store&&) noexcept;

  const std::string& path() const;

  // Records the run of a results directory (or results.json), in one transaction, and reads it back inside
  // it before committing: a run that does not read back as written is rolled back (InputError), so "added"
  // always means readable. A run already recorded (the same host, start time and matrix; a run recorded
  // before schema 6: the same host, start time, machine, build and label) adds nothing. InputError for a
  // results file that cannot be read, a run that did not finish (interrupted: resume it first), an emulated
  // run, or a measured cell whose times are not a call's (cells_from_results.hpp).
  Recorded record(const std::string& results);
  // Records a run that no results file holds (`ladder ab --repo`: one side's medians of a repository's own
  // benchmarks, app/ab_repository.cpp) as record() does, in one transaction, read back before committing:
  // its row from `context` (the machine, the build's compiler and flags, the source's commit, the run's
  // start, end, label and status), its cells as given, `origin` kept where a run keeps its results file.
  // `identity` is what makes it that run (its run id is the SHA-256 of it): recorded again, nothing is
  // added. InputError for a run not "complete", an emulated one, or a cell whose real and CPU times differ
  // in number.
  Recorded record_measured(const ContextRecord& context, const std::vector<StoredCell>& cells,
                           const std::string& identity, const std::string& origin);

  // Runs, oldest first (by start time).
  std::vector<RecordedRun> runs(const RunFilter& filter = {}) const;
  // One run (by run id), as runs() returns it; nullopt when the database does not hold it.
  std::optional<RecordedRun> run(const std::string& run_id) const;
  // The cells of one run (by run id), in the order of its results file.
  std::vector<StoredCell> cells(const std::string& run_id) const;
  // Every series the database holds (of measured cells), sorted; `tier` non-empty: of that tier only.
  std::vector<SeriesKey> series_keys(const std::string& tier = "") const;
  // A series' points, oldest run first: never mixes machines or builds.
  std::vector<SeriesPoint> series(const SeriesKey& key) const;

  // For tests of migrations: a new database at `path` with the schema of `version` (1 … schema_version),
  // as that version of Ladder made it.
  static void create_at_version(const std::string& path, int version);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  Recorded write_recorded(const RecordedRun& run, const std::vector<StoredCell>& cells,
                          const std::string& identity);
  friend struct NoiseTable;  // noise_store.cpp: the machine's noise floors, through the same connection
};

// `ladder history list`: the runs the filter keeps, oldest first, as a table (or JSON) on stdout.
void print_runs(const Store& store, const RunFilter& filter, bool as_json);

// `ladder history show`: a tier's series as tables (or JSON) on stdout, one per integrand, n, threads, ranks,
// machine and build; empty fields and unset sizes match every value. InputError when nothing matches.
struct SeriesQuery {
  std::string tier, integrand;
  std::optional<std::int64_t> n;
  std::optional<int> threads;
};
void print_series(const Store& store, const SeriesQuery& query, bool as_json);

// The SHA-256 of `text`, lower-case hex (common/sha256.hpp).
using ladder::sha256_hex;

}  // namespace ladder::history
