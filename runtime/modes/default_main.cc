// main() of a cfuzz target, in its own object file: a binary with a main of its own (a
// GoogleTest binary linked with cfuzz_gtest_main) does not pull this one from the archive.
#include "runtime/modes/target_main.h"

int main(int argc, char** argv) { return cfuzz::runtime::target_main(argc, argv); }
