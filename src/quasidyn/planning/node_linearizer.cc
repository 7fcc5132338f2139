#include "quasidyn/planning/node_linearizer.h"

#include "quasidyn/common/argument_check.h"

namespace quasidyn {

LinearizationOptions NodeLinearizationOptions(const PlanningSettings& settings, int threads) {
  LinearizationOptions options;
  options.mode = GradientMode::kBOnly;
  options.threads = threads;
  switch (settings.method) {
    case ReachabilityMethod::kExact:
      options.method = LinearizationMethod::kExact;
      break;
    case ReachabilityMethod::kLogBarrier:
      options.method = LinearizationMethod::kLogBarrier;
      options.kappa = settings.kappa;
      break;
    case ReachabilityMethod::kRandomized:
      options.method = LinearizationMethod::kRandomized;
      options.randomized.samples = settings.samples;
      options.randomized.u_std = settings.sample_std;
      options.randomized.q_std = 0.0;
      break;
  }
  return options;
}

NodeLinearizer::NodeLinearizer(const StepModel& model, const PlanningSettings& settings,
                               int threads)
    : linearizer_(model, NodeLinearizationOptions(settings, threads)) {}

std::vector<NodeLinearization> NodeLinearizer::Linearize(const std::vector<Eigen::VectorXd>& qs,
                                                         const std::vector<std::uint64_t>& seeds) {
  QUASIDYN_CHECK_ARGUMENT(seeds.size() == qs.size(), "NodeLinearizer::Linearize",
                          "seeds and qs differ in size");
  const StepModel& model = linearizer_.model();
  std::vector<StepPoint> points(qs.size());
  for (size_t i = 0; i < qs.size(); ++i) {
    points[i].x.q = qs[i];
    points[i].u = model.HoldingCommand(points[i].x);
  }
  std::vector<Linearization> linearizations = linearizer_.LinearizeBatch(points, seeds);
  std::vector<NodeLinearization> out(qs.size());
  for (size_t i = 0; i < qs.size(); ++i) {
    Linearization& l = linearizations[i];
    out[i].status = l.status;
    out[i].message = std::move(l.message);
    if (!l.ok()) continue;
    out[i].mu = std::move(l.x_next.q);
    out[i].B = std::move(l.B);
  }
  return out;
}

}  // namespace quasidyn
