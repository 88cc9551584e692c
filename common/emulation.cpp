#include "emulation.hpp"

#include <cstdio>

#include "quote.hpp"

namespace ladder {

std::string Emulation::text() const {
  if (emulated == "qemu-user") return "emulated (qemu-user): times are not this machine's";
  if (emulated == "user-mode") return "emulated (user-mode, " + emulator + "): times are not this machine's";
  if (emulated == "no") return "native (" + host + ")";
  return "emulation unknown: " + evidence;
}

std::string Emulation::refusal(const std::string& where) const {
  return "'" + where + "' ran under emulation (" + (emulated == "qemu-user" ? "qemu-user" : emulator) + ": " +
         guest + " code on an " + host +
         " machine): its times are the emulator's, not those of this machine " + "nor of a real " + guest +
         " machine, so they rank nothing";
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
  emulation.guest = in.at("guest").string();
  emulation.host = in.at("host").string();
  emulation.emulator = in.at("emulator").string();
  emulation.evidence = in.at("evidence").string();
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
