#include "quasidyn/planning/grasp_conditioning.h"

#include <Eigen/SVD>
#include <algorithm>
#include <cmath>
#include <string>

#include "quasidyn/common/argument_check.h"

namespace quasidyn {

double GraspScore(const Eigen::MatrixXd& weighted_object_rows) {
  QUASIDYN_CHECK_ARGUMENT(weighted_object_rows.allFinite(), "GraspScore",
                          "the object rows of B have a non-finite entry");
  if (weighted_object_rows.size() == 0) return 0.0;
  // Singular values only, in decreasing order: the last is σ_r, r = min(rows, cols).
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(weighted_object_rows);
  return svd.singularValues()(svd.singularValues().size() - 1);
}

double GraspScore(const NodeReachability& reach) { return GraspScore(reach.B()); }

RankedGrasps SelectGrasps(const PlanningSettings& settings, RankedGrasps ranked,
                          const std::function<double(int)>& score_of) {
  if (settings.grasp_selection == GraspSelection::kNearest || ranked.empty()) return ranked;
  std::vector<double> scores;
  scores.reserve(ranked.size());
  double best = 0.0;
  for (const auto& [distance, index] : ranked) {
    const double score = score_of(index);
    QUASIDYN_CHECK_ARGUMENT(std::isfinite(score) && score >= 0.0, "SelectGrasps",
                            "candidate " + std::to_string(index) + " has score " +
                                std::to_string(score) + ", expected finite and >= 0");
    scores.push_back(score);
    best = std::max(best, score);
  }
  if (best == 0.0) return ranked;
  const double threshold = settings.grasp_score_fraction * best;
  RankedGrasps kept;
  for (size_t i = 0; i < ranked.size(); ++i)
    if (scores[i] >= threshold) kept.push_back(ranked[i]);
  return kept;
}

}  // namespace quasidyn
