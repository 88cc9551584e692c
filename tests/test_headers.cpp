// The object that carries the tests' precompiled header (ladder_test_headers, tests/CMakeLists.txt): CMake
// builds the header with this target's flags, and every test binary reuses it. Nothing else is here.
