// The lineariser's settings block `linearization` as its schema declares it once: the names the
// command line and Python keep, the defaults every face gets (LinearizationOptions' and
// RandomizedSmoothingSettings'), the ranges, the rule across settings and the messages.

#include "quasidyn/linearization/linearization_settings.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace quasidyn {
namespace {

// The message of the std::invalid_argument `call` throws ("" if none).
template <typename Call>
std::string Refusal(Call&& call) {
  try {
    call();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

const SettingSpec& Spec(const std::string& name) {
  const auto* setting = LinearizationSettingsSchema().FindByName(name);
  if (setting == nullptr) throw std::logic_error("no setting " + name);
  return setting->spec;
}

std::string DefaultOf(const std::string& name) {
  for (const SettingSpec& spec : LinearizationSettingsSchema().specs())
    if (spec.name == name) return spec.default_text;
  return "(none)";
}

TEST(LinearizationSettings, KeysNamesAndFlags) {
  const auto& schema = LinearizationSettingsSchema();
  EXPECT_EQ(schema.block(), "linearization");
  std::vector<std::string> paths, names;
  for (const SettingSpec& spec : schema.specs()) {
    paths.push_back(spec.path);
    names.push_back(spec.name);
  }
  EXPECT_EQ(paths, (std::vector<std::string>{"method", "kappa", "samples", "std", "std_q", "seed",
                                             "estimator", "threads", "contact_tolerance"}));
  // Python's keywords u_std and q_std; the command line's flags --std and --std-q.
  EXPECT_EQ(names, (std::vector<std::string>{"method", "kappa", "samples", "u_std", "q_std", "seed",
                                             "estimator", "threads", "contact_tolerance"}));
  EXPECT_EQ(Spec("u_std").flag, "std");
  EXPECT_EQ(Spec("q_std").flag, "std_q");
  EXPECT_EQ(Spec("samples").flag, "");
  EXPECT_EQ(Spec("u_std").unit, "m or rad");
  EXPECT_EQ(Spec("contact_tolerance").unit, "m");
  EXPECT_EQ(Spec("method").choices,
            (std::vector<std::string>{"exact", "log-barrier", "randomized"}));
  EXPECT_EQ(Spec("estimator").choices, (std::vector<std::string>{"first-order", "zeroth-order"}));
}

TEST(LinearizationSettings, DefaultsAreTheStructs) {
  const LinearizationOptions o;
  const RandomizedSmoothingSettings r;
  EXPECT_EQ(DefaultOf("method"), "exact");
  EXPECT_EQ(DefaultOf("samples"), std::to_string(r.samples));
  EXPECT_EQ(DefaultOf("samples"), "100");
  EXPECT_EQ(DefaultOf("u_std"), "0.01");
  EXPECT_EQ(DefaultOf("q_std"), "0");
  EXPECT_EQ(DefaultOf("seed"), "0");
  EXPECT_EQ(DefaultOf("estimator"), "first-order");
  EXPECT_EQ(DefaultOf("threads"), "1");
  // Unset: the formulation's κ, the scene's ε (no default of the block's own).
  EXPECT_EQ(DefaultOf("kappa"), "[]");
  EXPECT_EQ(DefaultOf("contact_tolerance"), "[]");
  EXPECT_FALSE(CheckLinearizationOptions(o).has_value());
}

TEST(LinearizationSettings, OverridesSetTheOptions) {
  LinearizationOptions o;
  ApplySettingOverrides(LinearizationSettingsSchema(),
                        {{"method", std::string("randomized")},
                         {"samples", std::int64_t{16}},
                         {"u_std", 0.003},
                         {"q_std", std::int64_t{0}},  // an int for a number
                         {"seed", std::int64_t{5}},
                         {"estimator", std::string("zeroth-order")},
                         {"threads", std::int64_t{2}},
                         {"kappa", 50.0},
                         {"contact_tolerance", 0.1}},
                        &o);
  EXPECT_EQ(o.method, LinearizationMethod::kRandomized);
  EXPECT_EQ(o.randomized.samples, 16);
  EXPECT_EQ(o.randomized.u_std, 0.003);
  EXPECT_EQ(o.randomized.q_std, 0.0);
  EXPECT_EQ(o.randomized.seed, 5u);
  EXPECT_EQ(o.estimator, RandomizedEstimator::kZerothOrder);
  EXPECT_EQ(o.threads, 2);
  ASSERT_TRUE(o.kappa.has_value());
  EXPECT_EQ(*o.kappa, 50.0);
  ASSERT_TRUE(o.contact_tolerance.has_value());
  EXPECT_EQ(*o.contact_tolerance, 0.1);
  EXPECT_FALSE(CheckLinearizationOptions(o).has_value());
}

TEST(LinearizationSettings, MessagesNameTheBlocksField) {
  const auto& schema = LinearizationSettingsSchema();
  LinearizationOptions o;
  const auto apply = [&](const std::string& name, const SettingValue& value) {
    return Refusal([&] { ApplySetting(schema, name, value, &o); });
  };
  EXPECT_EQ(apply("samples", std::int64_t{0}), "linearization.samples: must be >= 1 (got 0)");
  EXPECT_EQ(apply("u_std", -1.0), "linearization.std: must be >= 0 [m or rad] (got -1)");
  EXPECT_EQ(apply("q_std", -1.0), "linearization.std_q: must be >= 0 [m or rad] (got -1)");
  EXPECT_EQ(apply("threads", std::int64_t{0}), "linearization.threads: must be >= 1 (got 0)");
  EXPECT_EQ(apply("kappa", 0.0),
            "linearization.kappa: must be in [1e-06, 1e+12] [1/(N·m)] (got 0)");
  EXPECT_EQ(apply("contact_tolerance", -1.0),
            "linearization.contact_tolerance: must be >= 0 [m] (got -1)");
  EXPECT_EQ(apply("method", std::string("magic")),
            "linearization.method: unknown method 'magic' (exact, log-barrier, randomized)");
  EXPECT_EQ(apply("estimator", std::string("third-order")),
            "linearization.estimator: unknown estimator 'third-order' (first-order, "
            "zeroth-order)");
  EXPECT_NE(apply("std", 0.1).find("linearization.std: unknown setting"), std::string::npos);
  // Refused values leave the options as they were.
  EXPECT_EQ(o.randomized.samples, 100);
  EXPECT_FALSE(o.kappa.has_value());
}

TEST(LinearizationSettings, ZerothOrderNeedsAStandardDeviationOfU) {
  LinearizationOptions o;
  o.method = LinearizationMethod::kRandomized;
  o.estimator = RandomizedEstimator::kZerothOrder;
  o.randomized.u_std = 0.0;
  const std::optional<SettingsProblem> p = CheckLinearizationOptions(o);
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->field, "std");
  EXPECT_EQ(p->problem, "must be > 0 for the zeroth-order estimator (got 0)");
  EXPECT_EQ(Refusal([&] { ValidateLinearizationOptions(o); }),
            "linearization.std: must be > 0 for the zeroth-order estimator (got 0)");
  // Not a rule of the first-order mean, of the other methods, nor of the steps alone.
  o.estimator = RandomizedEstimator::kFirstOrder;
  EXPECT_FALSE(CheckLinearizationOptions(o).has_value());
  o.estimator = RandomizedEstimator::kZerothOrder;
  o.method = LinearizationMethod::kExact;
  EXPECT_FALSE(CheckLinearizationOptions(o).has_value());
  o.method = LinearizationMethod::kRandomized;
  o.mode = GradientMode::kNone;
  EXPECT_FALSE(CheckLinearizationOptions(o).has_value());
  // Ranges come first, then the rule.
  o.mode = GradientMode::kBOnly;
  o.randomized.samples = 0;
  EXPECT_EQ(CheckLinearizationOptions(o)->field, "samples");
}

}  // namespace
}  // namespace quasidyn
