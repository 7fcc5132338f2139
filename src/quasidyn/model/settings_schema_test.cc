#include "quasidyn/model/settings_schema.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "quasidyn/model/mpc_settings.h"
#include "quasidyn/model/planning_settings.h"

namespace quasidyn {
namespace {

enum class ToyMode { kSlow, kFast };
const char* ToyModeName(ToyMode mode) { return mode == ToyMode::kSlow ? "slow" : "fast"; }

struct ToySub {
  int count = 4;
};

struct Toy {
  double length = 0.5;
  int steps = 3;
  bool verbose = false;
  std::uint64_t seed = 7;
  double limit = std::numeric_limits<double>::infinity();
  Eigen::VectorXd weights;
  ToyMode mode = ToyMode::kSlow;
  std::optional<ToySub> sub;
};

const SettingsSchema<Toy>& ToySchema() {
  static const SettingsSchema<Toy>* const schema = [] {
    auto* s = new SettingsSchema<Toy>("toy", "a block of the tests");
    s->Number("shape.length", &Toy::length).Name("length").Unit("m").Above(0).Doc("a length");
    s->Integer("steps", &Toy::steps).AtLeast(1).AtMost(10).Doc("a count");
    s->Field("verbose", &Toy::verbose).Doc("a switch");
    s->Integer("seed", &Toy::seed).Doc("a seed");
    s->Number("limit", &Toy::limit).Unit("s").Above(0).MayBeInfinite().Doc("a time");
    s->Field("weights", &Toy::weights).AtLeast(0).Doc("weights");
    s->Choice("mode", &Toy::mode, {ToyMode::kSlow, ToyMode::kFast}, ToyModeName)
        .Noun("mode")
        .Doc("a mode");
    s->Section("sub", &Toy::sub, "an optional sub-block");
    s->Field("sub.count", &Toy::sub, &ToySub::count).AtLeast(2).Doc("its count");
    return s;
  }();
  return *schema;
}

const SettingSpec& Spec(const std::string& name) { return ToySchema().FindByName(name)->spec; }

TEST(SettingsSchema, NamesDefaultToThePathAndSectionsAreFoundFromIt) {
  EXPECT_EQ(Spec("length").path, "shape.length");
  EXPECT_EQ(Spec("sub_count").path, "sub.count");
  EXPECT_EQ(Spec("sub_count").section, "sub");
  EXPECT_EQ(Spec("steps").section, "");
  EXPECT_EQ(Spec("seed").type_min, 0);  // an unsigned field
}

TEST(SettingsSchema, DefaultsComeFromTheStructAndASubBlocksDefaultsFromItsOwn) {
  std::map<std::string, std::string> defaults;
  for (const SettingSpec& spec : ToySchema().specs()) defaults[spec.name] = spec.default_text;
  EXPECT_EQ(defaults["length"], "0.5");
  EXPECT_EQ(defaults["steps"], "3");
  EXPECT_EQ(defaults["verbose"], "false");
  EXPECT_EQ(defaults["limit"], "inf");
  EXPECT_EQ(defaults["mode"], "slow");
  EXPECT_EQ(defaults["sub_count"], "4");
}

TEST(SettingsSchema, RangesAsTheDocsGiveThem) {
  EXPECT_EQ(SettingRangeText(Spec("length")), "> 0");
  EXPECT_EQ(SettingRangeText(Spec("steps")), "[1, 10]");
  EXPECT_EQ(SettingRangeText(Spec("limit")), "> 0 or ∞");
  EXPECT_EQ(SettingRangeText(Spec("weights")), "each >= 0");
  EXPECT_EQ(SettingRangeText(Spec("mode")), "slow | fast");
  EXPECT_EQ(SettingRangeText(Spec("verbose")), "true | false");
}

TEST(SettingsSchema, ProblemsNameTheRangeAndTheValue) {
  EXPECT_EQ(SettingProblem(Spec("length"), -1.0), "must be > 0 [m] (got -1)");
  EXPECT_EQ(SettingProblem(Spec("length"), std::nan("")), "must be finite");
  EXPECT_EQ(SettingProblem(Spec("length"), std::numeric_limits<double>::infinity()),
            "must be finite");
  EXPECT_EQ(SettingProblem(Spec("length"), std::int64_t{2}), "");  // an integer for a number
  EXPECT_EQ(SettingProblem(Spec("limit"), std::numeric_limits<double>::infinity()), "");
  EXPECT_EQ(SettingProblem(Spec("limit"), std::nan("")), "must be > 0 [s] (got nan)");
  EXPECT_EQ(SettingProblem(Spec("steps"), std::int64_t{0}), "must be >= 1 (got 0)");
  EXPECT_EQ(SettingProblem(Spec("steps"), std::int64_t{11}), "must be <= 10 (got 11)");
  EXPECT_EQ(SettingProblem(Spec("steps"), 2.5), "must be an integer");
  EXPECT_EQ(SettingProblem(Spec("seed"), std::int64_t{-1}), "must be >= 0 (got -1)");
  EXPECT_EQ(SettingProblem(Spec("weights"), std::vector<double>{1.0, -2.0}),
            "entry 1 must be >= 0 (got -2)");
  EXPECT_EQ(SettingProblem(Spec("weights"), std::vector<double>{}), "");  // not given
  EXPECT_EQ(SettingProblem(Spec("mode"), std::string("medium")),
            "unknown mode 'medium' (slow, fast)");
  EXPECT_EQ(SettingProblem(Spec("verbose"), std::string("yes")), "must be true or false");
}

TEST(SettingsSchema, OverridesAreCheckedAndNamedByTheBlocksField) {
  Toy toy;
  ApplySettingOverrides(
      ToySchema(), {{"length", 2.0}, {"mode", std::string("fast")}, {"sub_count", std::int64_t{5}}},
      &toy);
  EXPECT_EQ(toy.length, 2.0);
  EXPECT_EQ(toy.mode, ToyMode::kFast);
  ASSERT_TRUE(toy.sub.has_value());  // a setting of a sub-block turns it on
  EXPECT_EQ(toy.sub->count, 5);
  try {
    ApplySetting(ToySchema(), "steps", std::int64_t{0}, &toy);
    ADD_FAILURE() << "steps = 0 was taken";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "toy.steps: must be >= 1 (got 0)");
  }
  try {
    ApplySetting(ToySchema(), "lenght", 1.0, &toy);
    ADD_FAILURE() << "an unknown name was taken";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "toy.lenght: unknown setting (did you mean 'length'?)");
  }
  EXPECT_EQ(toy.steps, 3);  // a refused value leaves the field
}

TEST(SettingsSchema, TheCheckSkipsASubBlockThatIsOff) {
  Toy toy;
  EXPECT_FALSE(CheckSettingsBlock(ToySchema(), toy).has_value());
  toy.steps = 20;
  const std::optional<SettingsProblem> problem = CheckSettingsBlock(ToySchema(), toy);
  ASSERT_TRUE(problem.has_value());
  EXPECT_EQ(problem->field, "steps");
  EXPECT_EQ(problem->problem, "must be <= 10 (got 20)");
  toy.steps = 3;
  toy.sub = ToySub{1};
  ASSERT_TRUE(CheckSettingsBlock(ToySchema(), toy).has_value());
  EXPECT_EQ(CheckSettingsBlock(ToySchema(), toy)->field, "sub.count");
}

TEST(SettingsSchema, ADeclarationTwiceIsRefused) {
  SettingsSchema<Toy> schema("toy", "");
  schema.Number("length", &Toy::length);
  EXPECT_THROW(schema.Number("length", &Toy::length), std::logic_error);
}

struct ToyOuter {
  Toy inner;
  double gain = 2.0;
};

TEST(SettingsSchema, AnIncludedBlockKeepsItsDeclarationUnderAPrefix) {
  SettingsSchema<ToyOuter> outer("outer", "");
  outer.Number("gain", &ToyOuter::gain).Above(0).Doc("a gain");
  outer.Include("inner", &ToyOuter::inner, ToySchema(), "inner_");
  const auto* length = outer.FindByName("inner_length");
  ASSERT_NE(length, nullptr);
  EXPECT_EQ(length->spec.path, "inner.shape.length");
  EXPECT_EQ(length->spec.unit, "m");
  ToyOuter o;
  ApplySetting(outer, "inner_length", 3.0, &o);
  EXPECT_EQ(o.inner.length, 3.0);
  EXPECT_THROW(ApplySetting(outer, "inner_length", -3.0, &o), std::invalid_argument);
  EXPECT_EQ(outer.specs().size(), ToySchema().specs().size() + 1);
}

// The library's blocks: every setting has a doc, a unique name, and its default in its range
// (the defaults of the structs and the declared ranges agree).
template <typename T>
void ExpectConsistent(const SettingsSchema<T>& schema) {
  std::set<std::string> names;
  T defaults{};
  for (const SettingSectionSpec& section : schema.sections())
    schema.EnableSection(section.name, &defaults);
  for (const auto& setting : schema.settings()) {
    EXPECT_FALSE(setting.spec.doc.empty()) << schema.block() << "." << setting.spec.path;
    EXPECT_TRUE(names.insert(setting.spec.name).second) << setting.spec.name << " twice";
    EXPECT_EQ(SettingProblem(setting.spec, setting.get(defaults)), "")
        << schema.block() << "." << setting.spec.path << "'s default is out of its range";
  }
}

TEST(SettingsSchema, TheLibrarysBlocksAreConsistent) {
  ExpectConsistent(PlanningSettingsSchema());
  ExpectConsistent(MpcSettingsSchema());
}

}  // namespace
}  // namespace quasidyn
