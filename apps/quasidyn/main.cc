// quasidyn command line: placeholder until the subcommands land.
#include <iostream>
int main() { std::cout << "quasidyn " << QUASIDYN_VERSION << "\n"; return 0; }
