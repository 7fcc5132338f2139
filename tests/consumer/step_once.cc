// Loads a scene file, steps it once with its own formulation and prints the outcome: the
// smallest program that exercises the installed headers, libraries and CMake package.
// Usage: step_once <scene.yaml>; exit 0 when the step succeeds.
#include <cstdio>
#include <exception>
#include <memory>

#include "quasidyn/formulations/registry.h"
#include "quasidyn/scenes/scene_loading.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: step_once <scene.yaml>\n");
    return 2;
  }
  try {
    auto scene = std::make_shared<const quasidyn::Scene>(quasidyn::LoadScene(argv[1]));
    const auto model = quasidyn::MakeStepModel(scene);
    const auto data = model->CreateData();
    const quasidyn::State x = quasidyn::InitialState(*scene);
    model->Calc(x, model->ScheduledCommand(model->time_step(), x), data.get());
    std::printf("quasidyn %s: one step of %d coordinates: %s\n", QUASIDYN_VERSION, scene->nq,
                data->result.ok() ? "ok" : data->result.message.c_str());
    return data->result.ok() ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "step_once: %s\n", e.what());
    return 1;
  }
}
