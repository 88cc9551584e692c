// Whether a run's process ran on its machine's own processor or under user-mode emulation (qemu-user running
// an aarch64 build on an x86-64 machine, say), as results.json's context.emulation records it. An emulated
// run proves that its code runs and what it computes, never how fast: its times are the emulator's, so no
// reader ranks them (the report, pick, compare and ab refuse, saying why). Detected by the harness
// (harness/emulation.hpp); a file written before Ladder looked has no record, and reads as not recorded.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "json_reader.hpp"

namespace ladder {

struct Emulation {
  // "no": the machine's processor ran the code; "qemu-user": qemu's user-mode emulator did; "user-mode":
  // another emulator (named in `emulator`); "unknown": the check could not be made (never taken for "no").
  std::string emulated = "unknown";
  std::string guest = "unknown";  // the architecture the program was built for: "aarch64", "x86_64"
  std::string host = "unknown";   // the architecture of the machine it ran on
  std::string emulator;           // the program that ran it ("/usr/bin/qemu-aarch64-static"); empty natively
  std::string evidence;           // how it was told, in words

  // Emulated, by qemu-user or another emulator: its times are not the machine's.
  bool is_emulated() const { return emulated == "qemu-user" || emulated == "user-mode"; }
  // The context's line: "emulated (qemu-user): times are not this machine's", "native (x86_64)",
  // "emulation unknown: …".
  std::string text() const;
  // Why a reader does not rank the times, one sentence naming the run (`where`: its path or machine).
  std::string refusal(const std::string& where) const;
};

void to_json(nlohmann::json& out, const Emulation& emulation);
// Checked: `emulated` must be one of the four values above; an unknown one is a SchemaError naming it.
Emulation read_emulation(const JsonReader& in);

// The architecture an ELF header's e_machine names ("x86_64", "aarch64", …; "machine 0x…" for others).
std::string elf_machine_name(unsigned machine);

}  // namespace ladder
