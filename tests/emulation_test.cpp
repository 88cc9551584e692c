// An emulated run says so and ranks nothing (common/emulation.hpp, harness/machine/emulation_check.hpp,
// reports/sections/emulated.cpp): the check on crafted ELF files, its test switch, the context field read and
// written (and absent from older files), and the report, pick and compare of a crafted emulated run: no
// answer, no usage map, no speedups, a sentence why, each cell's error and each tier's vectorization still
// shown.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "command.hpp"
#include "crafted_results.hpp"
#include "document_text.hpp"
#include "emulation_check.hpp"
#include "errors.hpp"
#include "process.hpp"
#include "report.hpp"
#include "sections.hpp"

namespace ladder {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;
using testing::TempDir;

// The other architecture than this test's, and its ELF e_machine.
const bool on_x86 = compiled_architecture() == "x86_64";
const std::string other_architecture = on_x86 ? "aarch64" : "x86_64";
const unsigned other_machine = on_x86 ? 0xb7 : 0x3e;

// The start of a little-endian ELF file whose e_machine is `machine`: all the check reads.
fs::path elf_file(const fs::path& path, unsigned machine) {
  std::string header(20, '\0');
  header[0] = 0x7f, header[1] = 'E', header[2] = 'L', header[3] = 'F';
  header[4] = 2 /* 64-bit */, header[5] = 1 /* little-endian */, header[6] = 1;
  header[18] = static_cast<char>(machine & 0xff), header[19] = static_cast<char>(machine >> 8);
  std::ofstream(path, std::ios::binary) << header;
  return path;
}

TEST(EmulationCheck, ReadsTheArchitectureOfAnElfFileAndNothingOfAnotherFile) {
  TempDir dir;
  EXPECT_EQ(elf_architecture(elf_file(dir / "arm", 0xb7).string()), "aarch64");
  EXPECT_EQ(elf_architecture(elf_file(dir / "x86", 0x3e).string()), "x86_64");
  EXPECT_EQ(elf_architecture(self_path()), compiled_architecture());
  testing::write_text(dir / "script", "#!/bin/sh\necho not an ELF file\n");
  EXPECT_EQ(elf_architecture((dir / "script").string()), "");
  EXPECT_EQ(elf_architecture((dir / "missing").string()), "");
  EXPECT_EQ(elf_architecture(""), "");
}

TEST(EmulationCheck, QemuOfAnotherArchitectureRunningThisProgramIsQemuUser) {
  TempDir dir;
  const std::string qemu = elf_file(dir / ("qemu-" + compiled_architecture() + "-static"), other_machine);
  const Emulation found = detect_emulation({qemu, self_path(), {"/bin/sh"}, ""});
  EXPECT_EQ(found.emulated, "qemu-user");
  EXPECT_TRUE(found.is_emulated());
  EXPECT_EQ(found.guest, compiled_architecture());
  EXPECT_EQ(found.host, other_architecture);
  EXPECT_EQ(found.emulator, qemu);
  EXPECT_EQ(found.text(), "emulated (qemu-user): times are not this machine's");
  EXPECT_NE(found.evidence.find(qemu), std::string::npos) << found.evidence;
}

TEST(EmulationCheck, ThisProgramRunByTheKernelItselfIsNative) {
  const Emulation found = detect_emulation({self_path(), self_path(), {}, ""});
  EXPECT_EQ(found.emulated, "no");
  EXPECT_FALSE(found.is_emulated());
  EXPECT_EQ(found.host, compiled_architecture());
  EXPECT_EQ(found.text(), "native (" + compiled_architecture() + ")");
  // And so is this very process (the test does not run under an emulator).
  EXPECT_EQ(detect_emulation().emulated, "no") << detect_emulation().evidence;
}

TEST(EmulationCheck, AnotherProgramOfTheSameArchitectureRunningThisOneIsAnEmulatorToo) {
  TempDir dir;  // qemu-x86_64 on an x86-64 machine: the architectures agree, the programs do not
  const std::string qemu = elf_file(dir / "qemu-same-static", on_x86 ? 0x3e : 0xb7);
  EXPECT_EQ(detect_emulation({qemu, self_path(), {}, ""}).emulated, "qemu-user");
  const std::string other = elf_file(dir / "box", other_machine);
  const Emulation found = detect_emulation({other, self_path(), {}, ""});
  EXPECT_EQ(found.emulated, "user-mode");  // not qemu: the emulator is named by its path
  EXPECT_EQ(found.text(), "emulated (user-mode, " + other + "): times are not this machine's");
}

TEST(EmulationCheck, WithoutTheRunnerTheMachinesOwnProgramDecidesAndWithNeitherItIsUnknownNeverNative) {
  TempDir dir;
  const std::string foreign_shell = elf_file(dir / "sh", other_machine);
  Emulation found = detect_emulation({"", self_path(), {(dir / "no-init").string(), foreign_shell}, ""});
  EXPECT_EQ(found.emulated, "user-mode");
  EXPECT_EQ(found.host, other_architecture);
  found = detect_emulation({"", self_path(), {self_path()}, ""});
  EXPECT_EQ(found.emulated, "no");
  found = detect_emulation({"", self_path(), {(dir / "no-init").string(), (dir / "no-sh").string()}, ""});
  EXPECT_EQ(found.emulated, "unknown");
  EXPECT_FALSE(found.is_emulated());
  EXPECT_EQ(found.host, "unknown");
  EXPECT_EQ(found.text().rfind("emulation unknown: ", 0), 0u) << found.text();
}

// Sets an environment variable for one test.
struct Environment {
  Environment(const char* name, const std::string& value) : name_(name) { setenv(name, value.c_str(), 1); }
  ~Environment() { unsetenv(name_); }
  const char* name_;
};

TEST(EmulationCheck, TheTestSwitchPutsOtherFilesInPlaceAndSaysSo) {
  TempDir dir;
  const std::string qemu = elf_file(dir / "qemu-guest-static", other_machine);
  {
    Environment emulated("LADDER_TEST_EMULATION", "runner=" + qemu + ",machine=none");
    const Emulation found = detect_emulation();
    EXPECT_EQ(found.emulated, "qemu-user");
    EXPECT_NE(found.evidence.find("LADDER_TEST_EMULATION, a switch for tests"), std::string::npos);
    EXPECT_THROW(refuse_under_emulation("ladder ab"), Unavailable);
  }
  {
    Environment unknown("LADDER_TEST_EMULATION", "runner=none,machine=none");
    EXPECT_EQ(detect_emulation().emulated, "unknown");
  }
  const std::vector<std::string> malformed = {"runner=" + qemu, "runner=,machine=none", "cpu=x,machine=none",
                                              "nonsense"};
  for (const std::string& bad : malformed) {
    Environment switched("LADDER_TEST_EMULATION", bad);
    try {
      detect_emulation();
      ADD_FAILURE() << "accepted " << bad;
    } catch (const InputError& error) {
      EXPECT_NE(std::string(error.what()).find("runner=PATH,machine=PATH"), std::string::npos)
          << error.what();
    }
  }
  EXPECT_NO_THROW(refuse_under_emulation("ladder ab"));  // the switch is gone: native again
}

TEST(EmulationCheck, NoEmulatorWordsForANativeProcess) { EXPECT_TRUE(emulator_words().empty()); }

// A context with an emulation record, read back; one without (an older file) reads as not recorded; a
// value the schema does not know is refused by its path.
TEST(EmulationSchema, TheContextFieldRoundTripsAndOlderFilesStillRead) {
  ContextRecord context;
  context.matrix.integrands = {"gauss"};
  context.emulation = Emulation{"qemu-user", "aarch64", "x86_64", "/usr/bin/qemu-aarch64-static", "seen"};
  json written = context;
  EXPECT_EQ(written.at("emulation").at("text"), "emulated (qemu-user): times are not this machine's");
  const ContextRecord read = read_context_record(JsonReader(written));
  ASSERT_TRUE(read.emulation);
  EXPECT_EQ(read.emulation->emulated, "qemu-user");
  EXPECT_EQ(read.emulation->guest, "aarch64");
  EXPECT_EQ(read.emulation->host, "x86_64");
  EXPECT_EQ(read.emulation->emulator, "/usr/bin/qemu-aarch64-static");

  written.erase("emulation");
  EXPECT_FALSE(read_context_record(JsonReader(written)).emulation);

  written["emulation"] = context.emulation.value();
  written["emulation"]["emulated"] = "maybe";
  try {
    read_context_record(JsonReader(written));
    ADD_FAILURE() << "an unknown emulated value was read";
  } catch (const SchemaError& error) {
    EXPECT_NE(std::string(error.what()).find("emulated"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("maybe"), std::string::npos) << error.what();
  }
}

// T5-19: the fields no reader ranks by are checked like the rest: an architecture that is no name, an
// emulator or evidence longer than Ladder writes are refused naming the field, and a message quotes them
// bounded.
TEST(EmulationSchema, JunkInTheFieldsNoReaderRanksByIsRefusedNamingTheField) {
  ContextRecord context;
  context.matrix.integrands = {"gauss"};
  context.emulation = Emulation{"user-mode", "aarch64", "x86_64", "/opt/box64", "seen"};
  const std::string huge(1 << 20, 'x');
  const std::vector<std::pair<std::string, json>> junk = {
      {"guest", ""}, {"guest", "aarch64; rm -rf /"}, {"host", huge}, {"emulator", huge}, {"evidence", huge}};
  for (const auto& [field, value] : junk) {
    json written = context;
    written["emulation"][field] = value;
    try {
      read_context_record(JsonReader(written));
      ADD_FAILURE() << field << " = " << value.dump().substr(0, 40) << " was read";
    } catch (const SchemaError& error) {
      EXPECT_NE(std::string(error.what()).find(field), std::string::npos) << error.what();
      EXPECT_LT(std::string(error.what()).size(), 1000U) << field;
    }
  }
  Emulation long_named = *context.emulation;
  long_named.emulator = std::string(4000, 'e');
  EXPECT_LT(long_named.text().size(), 400U);
  EXPECT_LT(long_named.refusal(huge).size(), 800U);
}

TEST(EmulationCheck, AbRefusesUnderEmulation) {
  TempDir dir;
  const std::string qemu = elf_file(dir / "qemu-guest-static", other_machine);
  const auto refused =
      testing::run_command("LADDER_TEST_EMULATION=runner=" + qemu + ",machine=none " LADDER_BINARY,
                           "ab --base HEAD --tiers naive");
  EXPECT_EQ(refused.exit_code, 3) << refused.output;
  EXPECT_NE(refused.output.find("ladder ab judges times"), std::string::npos) << refused.output;
  EXPECT_NE(refused.output.find("emulated (qemu-user)"), std::string::npos) << refused.output;
}

// `ladder run` under the switch: the context's record, its warning, the report that ranks nothing, no
// history record (its times would become this machine's series and noise), and a disturbed cell (made so by
// LADDER_TEST_DISTURB) not measured again, and no machine limits measured.
TEST(EmulatedRun, RecordsTheEmulationWarnsReportsWithoutRankingAndStaysOutOfTheHistory) {
  TempDir dir;
  const std::string qemu = elf_file(dir / "qemu-guest-static", other_machine);
  const fs::path out = dir / "run", history = dir / "history.sqlite";
  const auto ran = testing::run_command(
      "LADDER_TEST_DISTURB=naive/gauss/n:100000/threads:1 LADDER_TEST_EMULATION=runner=" + qemu +
          ",machine=none " LADDER_BINARY,
      "run --tiers naive,xsimd --n 1e5 --reps 3 --min-time 0.01 --no-instructions --out " + out.string() +
          " --history " + history.string());
  ASSERT_EQ(ran.exit_code, 0) << ran.output;
  const json context = testing::read_json(out / "results.json").at("context");
  EXPECT_EQ(context.at("emulation").at("emulated"), "qemu-user");
  EXPECT_EQ(context.at("emulation").at("emulator"), qemu);
  EXPECT_EQ(context.at("emulation").at("text"), "emulated (qemu-user): times are not this machine's");
  bool warned = false;
  for (const auto& warning : context.at("warnings"))
    warned = warned ||
             (warning.at("kind") == "emulated" && warning.at("message").get<std::string>().starts_with(
                                                      "emulated (qemu-user): times are not this machine's"));
  EXPECT_TRUE(warned) << context.at("warnings").dump(1);
  EXPECT_NE(ran.output.find("history: not recorded: emulated (qemu-user)"), std::string::npos) << ran.output;
  // Nor the machine's limits, --no-limits or not: the emulator's FLOP rate and bandwidth are not the
  // machine's.
  EXPECT_EQ(context.at("limits").at("measured"), false);
  EXPECT_EQ(context.at("limits").at("reason"),
            "not measured: emulated (qemu-user): times are not this machine's");
  EXPECT_NE(ran.output.find("the machine's limits: not measured: emulated (qemu-user)"), std::string::npos)
      << ran.output;
  EXPECT_EQ(ran.output.find("measuring the machine's limits"), std::string::npos) << ran.output;
  // A disturbed cell is not measured again: a quieter emulated time is still the emulator's.
  EXPECT_NE(ran.output.find("disturbed cells are not measured again: emulated (qemu-user)"),
            std::string::npos)
      << ran.output;
  EXPECT_EQ(ran.output.find("measuring naive/gauss/n:100000/threads:1 again"), std::string::npos)
      << ran.output;
  EXPECT_FALSE(fs::exists(history));
  const std::string report = testing::read_text(out / "report.md");
  EXPECT_NE(report.find("No answer: an emulated run's times rank nothing"), std::string::npos) << report;
  EXPECT_NE(report.find("Errors against the references"), std::string::npos) << report;
}

// T5-13: a run resumed under another emulation than it began in is refused, both ways, and keeps its files:
// its cells would mix the emulator's times with the machine's, and the history would record them as native.
TEST(EmulatedRun, AResumeUnderAnotherEmulationThanTheRunBeganInIsRefused) {
  TempDir dir;
  const std::string qemu = elf_file(dir / "qemu-guest-static", other_machine);
  const std::string emulated = "LADDER_TEST_EMULATION=runner=" + qemu + ",machine=none ";
  const std::string tiny =
      "run --tiers inlined --n 1e4 --threads 1 --reps 1 --min-time 0.005 --rounds 1 "
      "--no-limits --no-instructions --no-history --out ";
  for (const bool began_emulated : {false, true}) {
    const fs::path out = dir / (began_emulated ? "emulated" : "native");
    const auto began =
        testing::run_command((began_emulated ? emulated : "") + LADDER_BINARY, tiny + out.string());
    ASSERT_EQ(began.exit_code, 0) << began.output;
    const std::string results = testing::read_text(out / "results.json");
    const auto resumed = testing::run_command((began_emulated ? "" : emulated) + LADDER_BINARY,
                                              "run --resume " + out.string() + " --no-history");
    EXPECT_EQ(resumed.exit_code, 2) << resumed.output;
    EXPECT_NE(resumed.output.find("its run began " + std::string(began_emulated ? "emulated" : "native")),
              std::string::npos)
        << resumed.output;
    EXPECT_NE(resumed.output.find("resume it as it began"), std::string::npos) << resumed.output;
    EXPECT_EQ(testing::read_text(out / "results.json"), results);
    // As it began, it resumes.
    const auto same = testing::run_command((began_emulated ? emulated : "") + LADDER_BINARY,
                                           "run --resume " + out.string() + " --no-history");
    EXPECT_EQ(same.exit_code, 0) << same.output;
  }
}

}  // namespace
}  // namespace ladder
