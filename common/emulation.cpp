#include "emulation.hpp"

#include <cstdio>

#include "quote.hpp"

namespace ladder {

std::string Emulation::text() const {
  if (emulated == "qemu-user") return "emulated (qemu-user): times are not this machine's";
  if (emulated == "user-mode")
    return "emulated (user-mode, " + quote_text(emulator, 200) + "): times are not this machine's";
  if (emulated == "no") return "native (" + host + ")";
  return "emulation unknown: " + evidence;
}

std::string Emulation::refusal(const std::string& where) const {
  return "'" + quote_text(where, 200) + "' ran under emulation (" +
         (emulated == "qemu-user" ? "qemu-user" : quote_text(emulator, 200)) + ": " + guest + " code on an " +
         host + " machine): its times are the emulator's, not those of this machine " + "nor of a real " +
         guest + " machine, so they rank nothing";
}

void to_json(nlohmann::json& out, const Emulation& emulation) {
  out = {{"emulated", emulation.emulated}, {"guest", emulation.guest},       {"host", emulation.host},
         {"emulator", emulation.emulator}, {"evidence", emulation.evidence}, {"text", emulation.text()}};
}

Emulation read_emulation(const JsonReader& in) {
  Emulation emulation;
  emulation.emulated = in.at("emulated").string();
  if (emulation.emulated != "no" && emulation.emulated != "qemu-user" && emulation.emulated != "user-mode" &&
      emulation.emulated != "unknown")
    in.at("emulated")
        .fail("expected \"no\", \"qemu-user\", \"user-mode\" or \"unknown\", found " +
              quote_value(in.at("emulated").raw()));
  // An architecture as elf_machine_name() names one ("aarch64", "machine 0xf3") or "unknown"; the emulator a
  // path, the evidence a sentence or two: anything else was not written by Ladder.
  for (const char* key : {"guest", "host"}) {
    const std::string name = in.at(key).string();
    if (name.empty() || name.size() > 32 ||
        name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_ ") !=
            std::string::npos)
      in.at(key).fail("expected an architecture's name (\"x86_64\", \"aarch64\", \"unknown\"), found " +
                      quote_value(in.at(key).raw()));
    (key == std::string("guest") ? emulation.guest : emulation.host) = name;
  }
  emulation.emulator = in.at("emulator").string();
  if (emulation.emulator.size() > 4096)
    in.at("emulator")
        .fail("expected a program's path (at most 4096 bytes), found " +
              std::to_string(emulation.emulator.size()) + " bytes");
  emulation.evidence = in.at("evidence").string();
  if (emulation.evidence.size() > 8192)
    in.at("evidence")
        .fail("expected how the emulation was told (at most 8192 bytes), found " +
              std::to_string(emulation.evidence.size()) + " bytes");
  return emulation;  // `text` is derived from the rest: written for people, never read back
}

std::string elf_machine_name(unsigned machine) {
  switch (machine) {
    case 0x3e:
      return "x86_64";  // EM_X86_64
    case 0xb7:
      return "aarch64";  // EM_AARCH64
    case 0x03:
      return "i386";  // EM_386
    case 0x28:
      return "arm";  // EM_ARM
    case 0xf3:
      return "riscv";  // EM_RISCV
    case 0x15:
      return "ppc64";  // EM_PPC64
    case 0x16:
      return "s390x";  // EM_S390
    default: {
      char text[32];
      std::snprintf(text, sizeof text, "machine 0x%x", machine);
      return text;
    }
  }
}

}  // namespace ladder
