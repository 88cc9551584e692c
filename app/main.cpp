#include "commands.hpp"

int main(int argc, char** argv) { return ladder::run_command_line(argc, argv); }
