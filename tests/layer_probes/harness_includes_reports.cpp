// Must not compile: the harness sees variants/ and common/, never reports/ (a report is made from results
// files alone). tests/CMakeLists.txt builds this against ladder_harness and expects the include to fail.
#include "report.hpp"

int main() { return 0; }
