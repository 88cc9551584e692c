// Issue 50: what the history refuses to take in. A recorded noise floor of 1e308 % or inf (an edited or
// damaged database) is refused as damage, never made a threshold that turns every verdict into "no change"
// (T5-15). `history import` refuses times no machine measures (scaled by 1e300 or 1e-300), goes on past a
// refused run and names it (T5-19 a, b); every reader refuses a `remeasured` record no run writes (T5-19 c).
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "emulation.hpp"
#include "errors.hpp"
#include "history_store.hpp"
#include "history_store_support.hpp"
#include "identity.hpp"
#include "noise_store.hpp"
#include "results_file.hpp"

namespace ladder::testing {
namespace {

using history::Store;

std::string set_floors(const fs::path& file, const std::string& percent) {
  return execute(file, "UPDATE noise_floors SET percent = " + percent);
}

// T5-15: floors of 1e308 % and inf (9e999 reads as inf) and 1000 % are refused as damage by the readers
// (ab's floor, the report's) and through the binary; 999 % is still a floor.
TEST(HistoryBounds, ANoiseFloorThatIsNoPercentageIsRefusedAsDamage) {
  TempDir scratch;
  const fs::path file = scratch / "h.sqlite";
  json document = crafted_run("alpha", "2026-11-30T10:00:00Z");
  document["cells"].erase(3);  // the cuda cell, whose tier has no card there: `ladder report` reads the run
  const fs::path run = write_results(scratch / "run", document);
  const history::NoiseKey key{{"naive", "gauss", 1000000, 1, 1},
                              history::machine_fingerprint(read_results_file(run.string()).context)};
  {
    Store store(file.string(), Store::Mode::write);
    store.record(run.string());
    history::record_noise(store, key, {4, 12, "A/A", "2026-12-03T00:00:00Z", "3f2a1b0c9d", "3f2a1b0c9d"});
    EXPECT_THROW(history::record_noise(store, key, {1000, 12, "A/A", "2026-12-04T00:00:00Z"}), InputError);
  }
  ASSERT_EQ(set_floors(file, "999"), "");
  EXPECT_EQ(
      history::noise_of(Store(file.string(), Store::Mode::read), key, history::Compared::adjacent_processes)
          ->percent,
      999);
  for (const std::string percent : {"1e308", "9e999", "1000"}) {
    ASSERT_EQ(set_floors(file, percent), "");
    const Store store(file.string(), Store::Mode::read);
    try {
      history::noise_of(store, key, history::Compared::adjacent_processes);
      ADD_FAILURE() << percent << " % was taken as a noise floor";
    } catch (const InputError& refused) {
      const std::string message = refused.what();
      EXPECT_NE(message.find("history database '" + file.string() +
                             "': is damaged (its noise floor of tier "
                             "'naive', gauss, n = 1000000, 1 threads is "),
                std::string::npos)
          << message;
      EXPECT_NE(message.find(" %: a noise floor is a percentage from 0 to under 1000"), std::string::npos)
          << message;
    }
    const Outcome report = ladder("report " + in_quotes(run) + " --history " + in_quotes(file) + " --out " +
                                  in_quotes(scratch / "o"));
    EXPECT_EQ(report.exit_code, exit_bad_input) << percent << ": " << report.output;
    EXPECT_NE(report.output.find("is damaged (its noise floor"), std::string::npos) << report.output;
  }
  EXPECT_NE(query(file, "SELECT percent FROM noise_floors"), "4") << "the database is left as it was";
}

// T5-19 a: a median scaled by 1e300 or 1e-300 is refused, naming the cell and the value; nothing is recorded.
TEST(HistoryBounds, TimesNoMachineMeasuresAreRefusedNamingTheCell) {
  TempDir scratch;
  const fs::path file = scratch / "h.sqlite";
  for (const double scale : {1e300, 1e-300}) {
    const fs::path run = write_results(scratch / ("x" + std::to_string(scale > 1)),
                                       crafted_run("alpha", "2026-11-30T10:00:00Z"));
    json document = read_json(run / "results.json");
    document["cells"][0]["measurement"]["aggregates"]["median"]["real_time"] =
        document["cells"][0]["measurement"]["aggregates"]["median"]["real_time"].get<double>() * scale;
    write_text(run / "results.json", document.dump(1));
    const Outcome refused = ladder("history import " + in_quotes(run) + " --history " + in_quotes(file));
    EXPECT_EQ(refused.exit_code, exit_bad_input) << refused.output;
    EXPECT_NE(refused.output.find("cell 'naive/gauss/n:1000000/threads:1': its median "), std::string::npos)
        << refused.output;
    EXPECT_NE(
        refused.output.find(" ns a call is not a measured time (a call takes from 0.001 ns to 1e+15 ns"),
        std::string::npos)
        << refused.output;
    EXPECT_EQ(query(file, "SELECT COUNT(*) FROM runs"), "0");
  }
}

// T5-19 b: import T EMULATED N records T and N, says that EMULATED was not and why, and exits 2 naming it.
TEST(HistoryBounds, ImportGoesOnPastARefusedRunAndNamesIt) {
  TempDir scratch;
  const fs::path file = scratch / "h.sqlite";
  const fs::path first = write_results(scratch / "T", crafted_run("alpha", "2026-11-30T10:00:00Z"));
  json emulated = crafted_run("alpha", "2026-11-30T11:00:00Z");
  emulated["context"]["emulation"] =
      Emulation{"qemu-user", "aarch64", "x86_64", "/usr/bin/qemu-aarch64-static", "crafted"};
  const fs::path middle = write_results(scratch / "EMULATED", emulated);
  const fs::path last = write_results(scratch / "N", crafted_run("alpha", "2026-11-30T12:00:00Z"));
  const Outcome imported = ladder("history import " + in_quotes(first) + " " + in_quotes(middle) + " " +
                                  in_quotes(last) + " --history " + in_quotes(file));
  EXPECT_EQ(imported.exit_code, exit_bad_input) << imported.output;
  EXPECT_EQ(query(file, "SELECT COUNT(*) FROM runs"), "2");
  EXPECT_NE(imported.output.find("recorded " + first.string() + ": run "), std::string::npos)
      << imported.output;
  EXPECT_NE(imported.output.find("recorded " + last.string() + ": run "), std::string::npos)
      << imported.output;
  EXPECT_NE(imported.output.find("ladder: history import: not recorded: results file '" + middle.string() +
                                 "/results.json' holds an emulated run"),
            std::string::npos)
      << imported.output;
  EXPECT_NE(imported.output.find("history: 2 of 3 runs added to " + file.string() + ", 1 refused"),
            std::string::npos)
      << imported.output;
  EXPECT_NE(imported.output.find("history import: 1 of 3 not recorded ('" + middle.string() + "')"),
            std::string::npos)
      << imported.output;
}

// T5-19 c: a `remeasured` record no run writes is refused by every reader, naming the field; one a run
// writes is read.
TEST(HistoryBounds, ARemeasuredRecordNoRunWritesIsRefused) {
  TempDir scratch;
  const fs::path file = scratch / "h.sqlite";
  const json good = {{"attempts", 2},
                     {"first_median_ns", 7.16e8},
                     {"first_reasons", {"1.01 cores of other load"}},
                     {"still_disturbed", false}};
  const auto mutant = [&](const std::string& name, std::size_t cell, const json& remeasured) {
    const fs::path dir = write_results(scratch / name, crafted_run("alpha", "2026-11-30T10:00:00Z"));
    json document = read_json(dir / "results.json");
    document["cells"][cell]["remeasured"] = remeasured;
    write_text(dir / "results.json", document.dump());
    return dir;
  };
  json many = good, huge = good, zero = good, negative = good, attempts = good;
  many["first_reasons"] = json::array();
  for (int i = 0; i < 200000; ++i) many["first_reasons"].push_back("r");
  huge["first_reasons"] = {std::string(2 << 20, 'x')};
  zero["first_median_ns"] = 0;
  negative["first_median_ns"] = -5;
  attempts["attempts"] = 1000000;
  const struct {
    std::string name;
    std::size_t cell;
    json remeasured;
    std::string named;
  } junk[] = {
      {"zero", 0, zero, "cells[0].remeasured.first_median_ns: the first measurement's median 0 ns"},
      {"negative", 0, negative, "cells[0].remeasured.first_median_ns: the first measurement's median -5 ns"},
      {"attempts", 0, attempts,
       "cells[0].remeasured.attempts: a cell measured again was measured again from 1 "
       "to 10 times (`--remeasure` allows no more), not 1000000"},
      {"many", 0, many, "cells[0].remeasured.first_reasons: 200000 reasons; a run writes at most 1000"},
      {"huge", 0, huge, "cells[0].remeasured.first_reasons: a reason of 2097152 characters"},
      {"never", 3, good, "cells[3].remeasured: a cell that was unavailable was never measured"},
  };
  for (const auto& each : junk) {
    const fs::path dir = mutant(each.name, each.cell, each.remeasured);
    EXPECT_THROW(read_results_file(dir.string()), InputError) << each.name;
    const Outcome refused = ladder("history import " + in_quotes(dir) + " --history " + in_quotes(file));
    EXPECT_EQ(refused.exit_code, exit_bad_input) << each.name << ": " << refused.output.substr(0, 400);
    EXPECT_NE(refused.output.find(each.named), std::string::npos)
        << each.name << ": " << refused.output.substr(0, 400);
  }
  const fs::path kept = mutant("good", 0, good);
  EXPECT_EQ(read_results_file(kept.string()).cells.at(0).remeasured->attempts, 2);
  EXPECT_EQ(ladder("history import " + in_quotes(kept) + " --history " + in_quotes(file)).exit_code, 0);
}

}  // namespace
}  // namespace ladder::testing
