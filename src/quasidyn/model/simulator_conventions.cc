#include "quasidyn/model/simulator_conventions.h"

namespace quasidyn {

const char* FrictionRayBasisName(FrictionRayBasis basis) {
  return basis == FrictionRayBasis::kQsim ? "qsim" : "quasidyn";
}

const char* QuaternionUpdateName(QuaternionUpdate update) {
  return update == QuaternionUpdate::kFirstOrder ? "first_order" : "exponential_map";
}

const char* JointLimitRuleName(JointLimitRule rule) {
  return rule == JointLimitRule::kIgnored ? "ignored" : "enforced";
}

SimulatorConventions QsimConventions() {
  return {FrictionRayBasis::kQsim, QuaternionUpdate::kFirstOrder, JointLimitRule::kIgnored};
}

const SettingsSchema<SimulatorConventions>& SimulatorConventionsSchema() {
  static const SettingsSchema<SimulatorConventions>* const schema = [] {
    using C = SimulatorConventions;
    auto* s = new SettingsSchema<C>(
        "conventions",
        "where quasidyn's step and the reference quasistatic simulator's (qsim) differ: "
        "quasidyn's choices by default, qsim's for its files (docs/qsim-files.md)");
    s->Choice("friction_ray_basis", &C::friction_ray_basis,
              {FrictionRayBasis::kQuasidyn, FrictionRayBasis::kQsim}, FrictionRayBasisName)
        .Noun("friction ray basis")
        .Doc(
            "the 3D contacts' tangent frame, hence the pyramid's rays: quasidyn (Duff et al.) "
            "or qsim (Drake's MakeFromOneUnitVector(n, 2); n_d = 2: ±x̂ × n)");
    s->Choice("quaternion_update", &C::quaternion_update,
              {QuaternionUpdate::kExponentialMap, QuaternionUpdate::kFirstOrder},
              QuaternionUpdateName)
        .Noun("quaternion update")
        .Doc(
            "a floating joint's Q⁺: exponential_map, normalize(exp(½ωh) ⊗ Q), or first_order, "
            "normalize(Q + h E(Q) ω) as qsim");
    s->Choice("joint_limits", &C::joint_limits,
              {JointLimitRule::kEnforced, JointLimitRule::kIgnored}, JointLimitRuleName)
        .Noun("joint limit rule")
        .Doc(
            "whether the step keeps joints within their position limits (enforced) or not, as "
            "qsim (ignored)");
    return s;
  }();
  return *schema;
}

}  // namespace quasidyn
