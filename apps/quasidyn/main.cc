// quasidyn: simulate, differentiate and plan contact-rich manipulation (cli.h).
#include "cli.h"

int main(int argc, char** argv) { return quasidyn::cli::RunCommandLine(argc, argv); }
