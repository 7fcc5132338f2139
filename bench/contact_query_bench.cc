// The contact query of the arm + 10 cubes scene (Pang & Tedrake 2021, Fig. 1) at q0 and at the
// grasp (bench_scenes.h): the front end every formulation pays before building its problem.
//   BM_KinematicsUpdate     forward kinematics;
//   BM_GeometryModelQuery   broad and narrow phase into the model's compiled geometry;
//   BM_ContactQuery         kinematics, geometry and the contact set with its Jacobians
//                           (ContactModel::Compute); reports heap allocations per query.
// And the narrow phase of the pairs without a closed form, ours against FCL side by side on the
// same 256 pairs of each kind (dimensions 0.05 to 2 m, from overlapping to apart, as
// convex_distance_3d_fcl_test.cc): queries per second (items_per_second) and heap allocations
// per query:
//   BM_PairDistance/ours/<pairs>   GJK/EPA, geometry/convex_distance_3d.h;
//   BM_PairDistance/fcl/<pairs>    FCL 0.7 + libccd, testing/fcl_distance.h (the narrow phase's
//                                  engine before; geometries built once, as it had them).
// Run: build/release/contact_query_bench --benchmark_repetitions=10
//        --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <limits>
#include <random>
#include <vector>

#include "bench_scenes.h"
#include "quasidyn/contact/contact_model.h"
#include "quasidyn/geometry/convex_distance_3d.h"
#include "quasidyn/testing/fcl_distance.h"

namespace quasidyn::bench {
namespace {

const Eigen::VectorXd& ConfigurationOf(bool grasp) {
  static const Eigen::VectorXd q0 = SceneOf(Example::kArmCubes)->q0;
  return grasp ? StateOf(Example::kArmCubes).x.q : q0;
}

void BM_KinematicsUpdate(benchmark::State& state, bool grasp) {
  Kinematics kinematics(SceneOf(Example::kArmCubes));
  const Eigen::VectorXd& q = ConfigurationOf(grasp);
  for (auto _ : state) {
    kinematics.Update(q);
    benchmark::DoNotOptimize(kinematics.BodyPoses().data());
  }
}
BENCHMARK_CAPTURE(BM_KinematicsUpdate, q0, false);
BENCHMARK_CAPTURE(BM_KinematicsUpdate, grasp, true);

void BM_GeometryModelQuery(benchmark::State& state, bool grasp) {
  const ScenePtr scene = SceneOf(Example::kArmCubes);
  Kinematics kinematics(scene);
  kinematics.Update(ConfigurationOf(grasp));
  const GeometryModel geometry(scene);
  GeometryData data = geometry.CreateData();
  for (auto _ : state) {
    geometry.Query(kinematics.BodyPoses(), scene->contact_tolerance, &data);
    benchmark::DoNotOptimize(&data);
  }
  state.counters["contacts"] = static_cast<double>(data.candidates().size());
}
BENCHMARK_CAPTURE(BM_GeometryModelQuery, q0, false)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_GeometryModelQuery, grasp, true)->Unit(benchmark::kMicrosecond);

void BM_ContactQuery(benchmark::State& state, bool grasp) {
  const ContactModel model(SceneOf(Example::kArmCubes));
  ContactData data = model.CreateData();
  const Eigen::VectorXd& q = ConfigurationOf(grasp);
  model.Compute(q, &data);
  long allocations = 0;
  {
    testing::MallocCounter counter;
    model.Compute(q, &data);
    allocations = counter.count();
  }
  for (auto _ : state) {
    model.Compute(q, &data);
    benchmark::DoNotOptimize(&data);
  }
  state.counters["contacts"] = data.contacts().size();
  state.counters["allocations"] = static_cast<double>(allocations);
}
BENCHMARK_CAPTURE(BM_ContactQuery, q0, false)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_ContactQuery, grasp, true)->Unit(benchmark::kMicrosecond);

// 256 pairs of shapes of kinds (a, b) (0 cylinder, 1 box, 2 convex of 12 vertices, 3 capsule,
// 4 sphere) at poses from overlapping to apart, fixed by the seed.
struct PairSet {
  std::vector<Shape> a, b;
  std::vector<Eigen::Isometry3d> X_WA, X_WB;
};

Shape BenchShape(std::mt19937_64* random, int kind) {
  std::uniform_real_distribution<double> size(0.05, 1.0);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  Shape s;
  switch (kind) {
    case 0:
      s.type = ShapeType::kCylinder;
      s.radius = size(*random);
      s.length = 2 * size(*random);
      break;
    case 1:
      s.type = ShapeType::kBox;
      s.size = 2 * Eigen::Vector3d(size(*random), size(*random), size(*random));
      break;
    case 2: {
      s.type = ShapeType::kConvex;
      const Eigen::Vector3d half(size(*random), size(*random), size(*random));
      for (int i = 0; i < 12; ++i) {
        s.vertices.push_back(
            half.cwiseProduct(Eigen::Vector3d(unit(*random), unit(*random), unit(*random))));
      }
      break;
    }
    case 3:
      s.type = ShapeType::kCapsule;
      s.radius = size(*random);
      s.length = 2 * size(*random);
      break;
    default:
      s.type = ShapeType::kSphere;
      s.radius = size(*random);
      break;
  }
  return s;
}

PairSet MakePairSet(int kind_a, int kind_b) {
  std::mt19937_64 random(99 + 10 * kind_a + kind_b);
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  PairSet set;
  for (int i = 0; i < 256; ++i) {
    set.a.push_back(BenchShape(&random, kind_a));
    set.b.push_back(BenchShape(&random, kind_b));
    for (std::vector<Eigen::Isometry3d>* poses : {&set.X_WA, &set.X_WB}) {
      Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
      X.linear() =
          Eigen::Quaterniond(normal(random), normal(random), normal(random), normal(random))
              .normalized()
              .toRotationMatrix();
      X.translation() = (poses == &set.X_WA ? 1.2 : 0.2) *
                        Eigen::Vector3d(unit(random), unit(random), unit(random));
      poses->push_back(X);
    }
  }
  return set;
}

void BM_PairDistance(benchmark::State& state, bool fcl, int kind_a, int kind_b) {
  const PairSet set = MakePairSet(kind_a, kind_b);
  std::vector<ConvexCore3d> core_a, core_b;
  std::vector<std::shared_ptr<const fcl::CollisionGeometry<double>>> fcl_a, fcl_b;
  for (std::size_t i = 0; i < set.a.size(); ++i) {
    core_a.push_back(MakeConvexCore3d(set.a[i]));
    core_b.push_back(MakeConvexCore3d(set.b[i]));
    fcl_a.push_back(testing::MakeFclGeometry(set.a[i]));
    fcl_b.push_back(testing::MakeFclGeometry(set.b[i]));
  }
  auto query_all = [&]() {
    double sum = 0.0;
    for (std::size_t i = 0; i < set.a.size(); ++i) {
      if (fcl) {
        ContactPoint c;
        // A failure of FCL makes the sum NaN, which the benchmark reports.
        const Outcome outcome =
            testing::FclSignedDistance3d(*fcl_a[i], set.X_WA[i], *fcl_b[i], set.X_WB[i], &c);
        sum += outcome.ok() ? c.phi : std::numeric_limits<double>::quiet_NaN();
      } else {
        sum += ConvexSignedDistance3d(core_a[i], set.X_WA[i], core_b[i], set.X_WB[i]).point.phi;
      }
    }
    return sum;
  };
  long allocations = 0;
  {
    testing::MallocCounter counter;
    benchmark::DoNotOptimize(query_all());
    allocations = counter.count();
  }
  for (auto _ : state) benchmark::DoNotOptimize(query_all());
  // items_per_second: queries per second of CPU time.
  state.SetItemsProcessed(state.iterations() * static_cast<long>(set.a.size()));
  state.counters["allocations_per_query"] =
      static_cast<double>(allocations) / static_cast<double>(set.a.size());
}
BENCHMARK_CAPTURE(BM_PairDistance, ours / cylinder_box, false, 0, 1)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_PairDistance, fcl / cylinder_box, true, 0, 1)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_PairDistance, ours / cylinder_cylinder, false, 0, 0)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_PairDistance, fcl / cylinder_cylinder, true, 0, 0)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_PairDistance, ours / convex_box, false, 2, 1)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_PairDistance, fcl / convex_box, true, 2, 1)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_PairDistance, ours / convex_capsule, false, 2, 3)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_PairDistance, fcl / convex_capsule, true, 2, 3)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace quasidyn::bench

BENCHMARK_MAIN();
