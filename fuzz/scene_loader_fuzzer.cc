// libFuzzer target: the scene loader (YAML + one URDF, fuzz_scene_input.h). A finding is a crash,
// a sanitizer report, a hang, or an exception other than the loader's documented ones.
#include "fuzz_scene_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  quasidyn::fuzz::LoadFuzzScene(data, size);
  return 0;
}
