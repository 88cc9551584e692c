// Must not compile: reports/ sees common/ only, never the registry of tiers (variants/) or the harness.
// tests/CMakeLists.txt builds this against ladder_reports and expects the include to fail.
#include "registry.hpp"

int main() { return 0; }
