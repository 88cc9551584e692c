// Must not compile: history/ sees common/ only, never reports/ (the reports draw the history, not the other
// way round). tests/CMakeLists.txt builds this against ladder_history and expects the include to fail.
#include "history_page.hpp"

int main() { return 0; }
