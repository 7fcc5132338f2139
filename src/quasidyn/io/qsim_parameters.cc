#include "quasidyn/io/qsim_parameters.h"

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "quasidyn/io/loader_limits.h"
#include "quasidyn/model/physical_ranges.h"

namespace quasidyn {
namespace {

// A number of quasistatic_sim_params, YAML's .nan and .inf included (the simulator's files
// use both).
double ReadSpecialNumber(const YamlValue& value) {
  if (value.IsScalar()) {
    std::string text = value.AsString();
    if (!text.empty() && text[0] == '+') text.erase(0, 1);
    if (text == ".nan" || text == ".NaN" || text == ".NAN")
      return std::numeric_limits<double>::quiet_NaN();
    if (text == ".inf" || text == ".Inf" || text == ".INF")
      return std::numeric_limits<double>::infinity();
  }
  return value.AsDouble();
}

}  // namespace

void ReadQsimParameters(const YamlValue& params, QsimScene* scene) {
  if (!params.IsMap() && !params.IsSequence() && !params.IsScalar()) return;  // empty
  const std::vector<std::string> ignored = {"calc_contact_forces", "gradient_lstsq_tolerance",
                                            "use_free_solvers"};
  std::vector<std::string> keys = {
      "gravity",           "nd_per_contact",        "contact_detection_tolerance",
      "is_quasi_dynamic",  "unactuated_mass_scale", "h",
      "log_barrier_weight"};
  keys.insert(keys.end(), ignored.begin(), ignored.end());
  params.CheckKeys(keys);
  for (const std::string& key : ignored)
    if (params.Has(key))
      scene->warnings.push_back(params.file() + ":" + std::to_string(params.Get(key).line()) +
                                ": quasistatic_sim_params." + key +
                                " ignored: it sets how the reference simulator computes, "
                                "not the system");
  if (const auto gravity = params.Find("gravity")) scene->gravity = gravity->AsVector3();
  if (const auto rays = params.Find("nd_per_contact")) {
    const int n = rays->AsInt();
    if (n < 2 || n > kMaxFrictionRays)
      rays->Fail("must be an integer in [2, " + std::to_string(kMaxFrictionRays) + "] (got " +
                 std::to_string(n) + ")");
    // 2 rays are the simulator's ±x̂ × n, which its conventions (friction_ray_basis: qsim)
    // reproduce; with quasidyn's basis they become 4 rays (docs/qsim-files.md).
    scene->friction_rays = n;
  }
  if (const auto tolerance = params.Find("contact_detection_tolerance")) {
    const double epsilon = ReadSpecialNumber(*tolerance);
    if (!(epsilon >= 0.0)) tolerance->Fail("must be >= 0 [m] (or .inf)");
    if (!std::isinf(epsilon) && !InPhysicalRange(kContactToleranceRange, epsilon))
      tolerance->Fail(PhysicalRangeProblem(kContactToleranceRange, epsilon) + " (or .inf)");
    scene->contact_tolerance = std::min(epsilon, kMaxSceneNumber);  // .inf: every pair
  }
  if (const auto h = params.Find("h")) scene->time_step = h->AsDouble(kTimeStepRange);
  if (const auto weight = params.Find("log_barrier_weight"))
    weight->Fail(
        "the log-barrier weight is chosen at run time here: --formulation log-barrier "
        "--kappa VALUE (remove it from the file)");
  bool quasi_dynamic = true;  // QuasistaticSimParameters' default
  if (const auto flag = params.Find("is_quasi_dynamic")) {
    quasi_dynamic = flag->AsBool();
    scene->mass_scale_where = LocationOf(*flag);
  }
  if (!quasi_dynamic) {
    scene->object_mass_scale = 0.0;  // no M_u term: the quasistatic model
    return;
  }
  if (const auto scale = params.Find("unactuated_mass_scale")) {
    const double c = ReadSpecialNumber(*scale);
    if (std::isnan(c)) return;  // M_u unscaled: s = 1
    if (c == 0.0)
      scale->Fail(
          "0 holds the objects still in the reference simulator (q_u is not updated); "
          "quasidyn has no such mode: give a value > 0, .nan (s = 1), or fix the objects");
    if (!(c > 0.0) || std::isinf(c)) scale->Fail("must be > 0 and finite, or .nan");
    if (!InPhysicalRange(kMassScaleRange, c))
      scale->Fail(PhysicalRangeProblem(kMassScaleRange, c) + " (or .nan)");
    scene->unactuated_mass_scale = c;
    scene->mass_scale_where = LocationOf(*scale);
  }
}

}  // namespace quasidyn
