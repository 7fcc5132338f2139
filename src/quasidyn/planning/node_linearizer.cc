#include "quasidyn/planning/node_linearizer.h"

#include "quasidyn/common/argument_check.h"
#include "quasidyn/stepping/formulation_table.h"
#include "quasidyn/stepping/randomized_smoothing.h"

namespace quasidyn {

FormulationSettings LinearizationFormulation(const FormulationSettings& stepping,
                                             const PlanningSettings& settings) {
  FormulationSettings out = stepping;
  const GradientMethod method = settings.method == ReachabilityMethod::kLogBarrier
                                    ? GradientMethod::kLogBarrier
                                    : GradientMethod::kExact;
  out.type = DifferentiatedFormulation(stepping.type, method);
  if (settings.method == ReachabilityMethod::kLogBarrier) out.kappa = settings.kappa;
  return out;
}

NodeLinearizer::NodeLinearizer(ScenePtr scene, const FormulationSettings& stepping,
                               const PlanningSettings& settings, int threads)
    : settings_(settings),
      batch_(MakeStepModel(std::move(scene), LinearizationFormulation(stepping, settings)),
             threads) {}

std::vector<NodeLinearization> NodeLinearizer::Linearize(const std::vector<Eigen::VectorXd>& qs,
                                                         const std::vector<std::uint64_t>& seeds) {
  QUASIDYN_CHECK_ARGUMENT(seeds.size() == qs.size(), "NodeLinearizer::Linearize",
                          "seeds and qs differ in size");
  const Scene& scene = batch_.model().scene();
  std::vector<NodeLinearization> out(qs.size());
  if (settings_.method == ReachabilityMethod::kRandomized) {
    RandomizedSmoothingSettings smoothing;
    smoothing.samples = settings_.samples;
    smoothing.u_std = settings_.sample_std;
    smoothing.q_std = 0.0;
    for (size_t i = 0; i < qs.size(); ++i) {
      smoothing.seed = seeds[i];
      const Eigen::VectorXd u = qs[i].tail(scene.nq_a);
      SmoothedLinearization s =
          FirstOrderSmoothing(&batch_, qs[i], u, GradientMode::kBOnly, smoothing);
      out[i].status = s.status;
      out[i].message = s.message;
      out[i].mu = std::move(s.q_next);
      out[i].B = std::move(s.B);
    }
    return out;
  }
  std::vector<StepPoint> points(qs.size());
  for (size_t i = 0; i < qs.size(); ++i) {
    points[i].x.q = qs[i];
    points[i].u = qs[i].tail(scene.nq_a);
  }
  std::vector<StepEvaluation> evaluations = batch_.Run(points, GradientMode::kBOnly);
  for (size_t i = 0; i < qs.size(); ++i) {
    StepEvaluation& e = evaluations[i];
    if (!e.result.ok()) {
      out[i].status = e.result.status;
      out[i].message = e.result.message;
    } else if (!e.derivatives.ok()) {
      out[i].status = e.derivatives.status;
      out[i].message = e.derivatives.message;
    } else {
      out[i].status = e.result.status;
      out[i].mu = std::move(e.result.next.q);
      out[i].B = std::move(e.derivatives.B);
    }
  }
  return out;
}

}  // namespace quasidyn
