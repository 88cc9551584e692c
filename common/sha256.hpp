// SHA-256, from OpenSSL's EVP interface: the history's run ids and fingerprints, and `ladder export --from`'s
// check that a run measured the kernel text the export copies.
#pragma once

#include <string>

namespace ladder {

// The SHA-256 of `text`, lower-case hex. Unavailable should OpenSSL fail to compute it.
std::string sha256_hex(const std::string& text);

}  // namespace ladder
