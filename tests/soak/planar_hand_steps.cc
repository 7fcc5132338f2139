// Soak test: one long run of planar-hand steps (examples/planar_hand, the qp formulation) in one
// process, its resident memory sampled; fails when the memory grows by more than the allowed
// fraction after the warm-up (docs/development.md, "Soak tests").
//
// The run is one trajectory: the state carries from each step to the next, never restarted.
// The command goes back and forth along the scene's schedule (0 → 1 s: squeeze, lift; then
// back: lower, release; period 2 s), so the contacts open and close all along. Every 10th
// step also computes A and B (CalcDiff). VmRSS is read at every 1 % of the steps; the warm-up
// is the first 10 % of the steps; growth = (RSS at the end − RSS at the warm-up's end) / RSS at
// the warm-up's end. Prints one row of the soak table:
//   | planar hand steps (qp) | 1000000 | 12345 KiB | 12345 KiB | 0.00 % |
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>

#include "quasidyn/formulations/registry.h"
#include "quasidyn/scenes/scene_loading.h"
#include "quasidyn/stepping/step_model.h"
#include "resident_memory.h"

namespace quasidyn::soak {
namespace {

struct Options {
  std::string scene_file;
  long steps = 1'000'000;
  double max_growth_percent = 1.0;
};

// The time along the scene's schedule at which the command of time t is read: a triangle wave
// of period 2·span over [0, span] [s].
double ScheduleTime(double t, double span) {
  const double phase = std::fmod(t, 2.0 * span);
  return phase <= span ? phase : 2.0 * span - phase;
}

int Run(const Options& options) {
  const ScenePtr scene = std::make_shared<const Scene>(LoadScene(options.scene_file));
  const std::shared_ptr<const StepModel> model = MakeStepModel(scene, FormulationChoice("qp"));
  const std::unique_ptr<StepData> data = model->CreateData();
  const double h = model->time_step();
  constexpr double kScheduleSpan = 1.0;  // [s]: the planar hand's last command knot
  const long sample_every = std::max(1L, options.steps / 100);
  const long warm_up_steps = options.steps / 10;

  State x = InitialState(*scene);
  Eigen::VectorXd u;
  long failures = 0, gradient_failures = 0;
  std::size_t fewest_contacts = SIZE_MAX, most_contacts = 0;
  double highest_ball = x.q[1];  // the ball's y [m]
  long rss_warm_up = 0, rss_peak_after_warm_up = 0, rss_end = 0;
  const auto start = std::chrono::steady_clock::now();
  for (long k = 0; k < options.steps; ++k) {
    scene->CommandAt(ScheduleTime((k + 1) * h, kScheduleSpan), &u);
    model->Calc(x, u, data.get());
    if (!data->result.ok()) {
      ++failures;
    } else if (k % 10 == 0) {
      model->CalcDiff(GradientMode::kAAndB, data.get());
      gradient_failures += !data->derivatives.ok();
    }
    x = data->result.next;
    fewest_contacts = std::min(fewest_contacts, data->result.contacts.size());
    most_contacts = std::max(most_contacts, data->result.contacts.size());
    highest_ball = std::max(highest_ball, x.q[1]);
    const long done = k + 1;
    if (done % sample_every == 0 || done == options.steps) {
      const long rss = ResidentKib();
      if (done == std::max(1L, warm_up_steps)) rss_warm_up = rss;
      if (done > warm_up_steps) rss_peak_after_warm_up = std::max(rss_peak_after_warm_up, rss);
      rss_end = rss;
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double growth = 100.0 * static_cast<double>(rss_end - rss_warm_up) / rss_warm_up;
  std::printf(
      "%ld steps in %.1f s (%.2f us/step); failed steps %ld, failed derivatives %ld; contacts "
      "per step %zu..%zu; ball's highest y %.4f m, last (x, y, theta) (%.4f, %.4f, %.4f); peak "
      "RSS after the warm-up %ld KiB\n",
      options.steps, seconds, 1e6 * seconds / options.steps, failures, gradient_failures,
      fewest_contacts, most_contacts, highest_ball, x.q[0], x.q[1], x.q[2], rss_peak_after_warm_up);
  std::printf("| what | count | RSS at warm-up end | RSS at end | growth |\n");
  std::printf("| planar hand steps (qp) | %ld | %ld KiB | %ld KiB | %.2f %% |\n", options.steps,
              rss_warm_up, rss_end, growth);
  std::fflush(stdout);
  if (growth > options.max_growth_percent) {
    std::fprintf(stderr,
                 "FAIL: resident memory grew by %.2f %% after the warm-up (%ld -> %ld KiB), "
                 "more than the allowed %.2f %%\n",
                 growth, rss_warm_up, rss_end, options.max_growth_percent);
    return 1;
  }
  return 0;
}

}  // namespace
}  // namespace quasidyn::soak

int main(int argc, char** argv) {
  quasidyn::soak::Options options;
  CLI::App app{
      "Soak test: planar-hand qp steps in one process, resident memory flat after the "
      "warm-up (the first 10 % of the steps)"};
  app.add_option("scene", options.scene_file, "the planar hand's scene file")
      ->required()
      ->check(CLI::ExistingFile);
  app.add_option("--steps", options.steps, "steps of the run (>= 100)")
      ->check(CLI::Range(100L, 1'000'000'000L));
  app.add_option("--max-growth", options.max_growth_percent,
                 "allowed growth of the resident memory after the warm-up [%], >= 0")
      ->check(CLI::NonNegativeNumber);
  CLI11_PARSE(app, argc, argv);
  try {
    return quasidyn::soak::Run(options);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "soak_planar_hand_steps: %s\n", error.what());
    return 2;
  }
}
