#include "quasidyn/control/plan_tracking.h"

#include <Eigen/Geometry>
#include <cmath>
#include <random>

#include "quasidyn/common/argument_check.h"

namespace quasidyn {

ScenePtr PerturbedScene(const Scene& scene, const PlantPerturbation& p) {
  constexpr const char* kWhere = "PerturbedScene";
  QUASIDYN_CHECK_ARGUMENT(p.object_offset.allFinite(), kWhere, "object_offset is not finite");
  QUASIDYN_CHECK_ARGUMENT(std::isfinite(p.friction_scale) && p.friction_scale > 0.0, kWhere,
                          "friction_scale must be > 0");
  QUASIDYN_CHECK_ARGUMENT(p.substeps >= 1, kWhere, "substeps must be >= 1");
  auto out = std::make_shared<Scene>(scene);
  for (const ModelInstance& instance : out->instances) {
    if (instance.actuated || instance.nq == 0) continue;
    const int dims = instance.nq == 3 ? 2 : 3;  // planar (x, y, θ) or floating (p, Q)
    out->q0.segment(instance.q_start, dims) += p.object_offset.head(dims);
  }
  for (CollisionGeometry& geometry : out->geometries) geometry.friction *= p.friction_scale;
  out->time_step = scene.time_step / p.substeps;
  return out;
}

PlantPerturbation RandomPerturbation(const Scene& scene, std::uint64_t seed, double offset,
                                     double friction_spread, int substeps) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  Eigen::Vector3d direction(normal(rng), normal(rng), scene.planar ? 0.0 : normal(rng));
  PlantPerturbation p;
  p.object_offset = offset * direction.normalized();
  p.friction_scale = 1.0 + friction_spread * uniform(rng);
  p.substeps = substeps;
  return p;
}

void CheckSameCoordinates(const Scene& model, const Scene& plant) {
  auto check = [](int a, int b, const char* name) {
    QUASIDYN_CHECK_ARGUMENT(a == b, "plant scene",
                            std::string("its ") + name + " = " + std::to_string(b) +
                                " does not match the model's " + std::to_string(a));
  };
  check(model.nq, plant.nq, "n_q");
  check(model.nq_u, plant.nq_u, "n_q,u (objects)");
  check(model.nq_a, plant.nq_a, "n_q,a (robots)");
  QUASIDYN_CHECK_ARGUMENT(model.planar == plant.planar, "plant scene",
                          "one scene is planar and the other is not");
}

TrackingResult TrackPlan(const StepModel& plant, int substeps, const Eigen::VectorXd& q0,
                         const std::vector<Eigen::VectorXd>& q_ref,
                         const std::vector<Eigen::VectorXd>& u_ref, PlanController* controller) {
  constexpr const char* kWhere = "TrackPlan";
  const int T = static_cast<int>(u_ref.size());
  const Scene& scene = plant.scene();
  QUASIDYN_CHECK_ARGUMENT(substeps >= 1, kWhere, "substeps must be >= 1");
  QUASIDYN_CHECK_ARGUMENT(static_cast<int>(q_ref.size()) == T + 1 && T >= 1, kWhere,
                          "the plan needs T >= 1 commands and T + 1 configurations");
  CheckVector(kWhere, "q0", q0, plant.state_q_size(), "the plant's n_q");
  CheckVector(kWhere, "q_ref[T]", q_ref[T], plant.state_q_size(), "the plant's n_q");
  for (int t = 0; t < T; ++t) CheckVector(kWhere, "u_ref", u_ref[t], plant.control_size(), "n_q,a");
  std::unique_ptr<StepData> data = plant.CreateData();
  TrackingResult out;
  out.q.push_back(q0);
  // The plant's whole state: a second-order plant's velocity starts at rest and carries over
  // from one control step to the next (the controllers measure q only).
  State x{q0, Eigen::VectorXd::Zero(plant.state_v_size())};
  for (int t = 0; t < T; ++t) {
    const Eigen::VectorXd u = controller ? controller->Command(t, out.q.back()) : u_ref[t];
    out.u.push_back(u);
    for (int s = 0; s < substeps; ++s) {
      plant.Calc(x, u, data.get());
      if (!data->result.ok()) {
        out.status = data->result.status;
        out.message = "plant step " + std::to_string(t + 1) + " failed: " + data->result.message;
        break;
      }
      x = data->result.next;
    }
    if (!out.message.empty()) break;
    out.q.push_back(x.q);
  }
  const int no = scene.nq_u;
  out.final_object_error = out.q.back().head(no) - q_ref[T].head(no);
  if (scene.planar) {
    out.final_position_error = out.final_object_error.head(std::min(no, 2)).norm();
    out.final_angle_error = no >= 3 ? std::abs(out.final_object_error(2)) : 0.0;
  } else if (no >= 7) {
    out.final_position_error = out.final_object_error.head(3).norm();
    const Eigen::Quaterniond a(out.q.back()(3), out.q.back()(4), out.q.back()(5), out.q.back()(6));
    const Eigen::Quaterniond b(q_ref[T](3), q_ref[T](4), q_ref[T](5), q_ref[T](6));
    out.final_angle_error = a.normalized().angularDistance(b.normalized());
  }
  return out;
}

}  // namespace quasidyn
