// Loading cost of a convex object with many vertices (issue: the default κ's size scan was
// quadratic, 52 s before the first step of a 100,000-vertex polygon). A planar scene holds one
// object whose only shape is a regular n-gon of radius 0.1 m resting on the table (z = 0 plane's
// x-y section), no robot:
//   BM_ParseConvexScene/n              the scene's YAML text to a Scene (yaml-cpp and the
//                                      loader's checks); n <= 1e5, as the scene file's 16 MiB
//                                      limit (io/loader_limits.h) holds about 3·10^5 vertices
//   BM_ConvexModelAndStep/<form>/n     from the Scene: the step model (MakeStepModel, which for
//                                      the log barrier computes its default κ from the object's
//                                      size), its data, and one step
// for n = 10^3, 10^4, 10^5, 10^6. Counter s_per_vertex: the time divided by n [s]; it stays
// flat in n when the cost is linear (a quadratic scan makes it grow tenfold per decade).
// Run: build/release/convex_load_bench --benchmark_repetitions=3
//        --benchmark_report_aggregates_only=true   (read the *_median rows)
#include <benchmark/benchmark.h>

#include <cmath>
#include <memory>
#include <sstream>
#include <string>

#include "quasidyn/formulations/registry.h"
#include "quasidyn/scenes/scene_loading.h"

namespace quasidyn::bench {
namespace {

constexpr double kRadius = 0.1;  // [m] the polygon's circumradius

// Vertex k of the regular n-gon [m], in the shape's frame.
Eigen::Vector3d Vertex(int k, int n) {
  const double angle = 2.0 * M_PI * k / n;
  return Eigen::Vector3d(kRadius * std::cos(angle), kRadius * std::sin(angle), 0.0);
}

// The scene file with the n-gon written out as `vertices`.
std::string ConvexSceneYaml(int n) {
  std::ostringstream yaml;
  yaml.precision(17);
  yaml << "name: big_convex\ndimension: 2\ntime_step: 0.01\ncontact_tolerance: 0.02\n"
          "formulation: {type: qp}\n"
          "environment:\n  - {name: table, type: half_space, friction: 0.4}\n"
          "objects:\n  - name: disk\n    joint: planar\n    body:\n      mass: 1.0\n"
          "      inertia: {principal: [1.0e-3, 1.0e-3, 1.0e-3]}\n"
          "      shapes:\n        - {name: hull, type: convex, friction: 0.4, vertices: [";
  for (int k = 0; k < n; ++k) {
    const Eigen::Vector3d p = Vertex(k, n);
    yaml << (k ? ", [" : "[") << p.x() << ", " << p.y() << ", 0]";
  }
  yaml << "]}\n    initial: [0.0, " << kRadius << ", 0.0]\n";
  return yaml.str();
}

// The scene of ConvexSceneYaml(n) without parsing n vertices: a triangle's scene whose shape
// then receives the n-gon's vertices.
Scene ConvexScene(int n) {
  Scene scene = LoadSceneFromString(ConvexSceneYaml(3), "big_convex", "");
  for (CollisionGeometry& g : scene.geometries) {
    if (g.shape.type != ShapeType::kConvex) continue;
    g.shape.vertices.resize(n);
    for (int k = 0; k < n; ++k) g.shape.vertices[k] = Vertex(k, n);
  }
  return scene;
}

void BM_ParseConvexScene(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const std::string yaml = ConvexSceneYaml(n);
  for (auto _ : state) {
    Scene scene = LoadSceneFromString(yaml, "big_convex", "");
    benchmark::DoNotOptimize(scene.geometries.data());
  }
  state.counters["s_per_vertex"] =
      benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate |
                                                     benchmark::Counter::kInvert);
}

void BM_ConvexModelAndStep(benchmark::State& state, const char* formulation) {
  const int n = static_cast<int>(state.range(0));
  const auto scene = std::make_shared<const Scene>(ConvexScene(n));
  const Eigen::VectorXd u;  // no robot
  for (auto _ : state) {
    const std::shared_ptr<const StepModel> model =
        MakeStepModel(scene, FormulationChoice(formulation));
    const std::unique_ptr<StepData> data = model->CreateData();
    model->Calc(InitialState(*scene), u, data.get());
    if (!data->result.ok()) {
      state.SkipWithError(data->result.message.c_str());
      return;
    }
    benchmark::DoNotOptimize(data->result.next.q.data());
  }
  state.counters["s_per_vertex"] =
      benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate |
                                                     benchmark::Counter::kInvert);
}

BENCHMARK(BM_ParseConvexScene)
    ->RangeMultiplier(10)
    ->Range(1000, 100000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ConvexModelAndStep, qp, "qp")
    ->RangeMultiplier(10)
    ->Range(1000, 1000000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ConvexModelAndStep, log_barrier, "log-barrier")
    ->RangeMultiplier(10)
    ->Range(1000, 1000000)
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace quasidyn::bench

BENCHMARK_MAIN();
