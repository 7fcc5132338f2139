// The conformance suite (tests/conformance/formulation_conformance.h) over the plug-in this folder
// registers: the penalty formulation is held to the contract of every built-in one, on the
// shared scenes it can step and on its own (FormulationPlugin::conformance_scenes).
//
// gtest evaluates INSTANTIATE_TEST_SUITE_P's generator in InitGoogleTest, so the plug-in is
// registered by a static initializer, before main; the test at the end fails when the
// instantiation missed it (a registration in a test's SetUp comes too late).

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "formulation_conformance.h"
#include "penalty_formulation.h"

namespace quasidyn::plugin_test {
namespace {

const bool kRegistered = [] {
  if (FormulationRegistry::Global().Find(PenaltyFormulation().info.name) == nullptr)
    RegisterFormulation(PenaltyFormulation());
  return true;
}();

using conformance::FormulationConformance;

INSTANTIATE_TEST_SUITE_P(Plugins, FormulationConformance,
                         ::testing::ValuesIn(conformance::PluginFormulations()),
                         conformance::FormulationTestName);

TEST(PluginConformance, ThePluginIsInTheSuite) {
  ASSERT_TRUE(kRegistered);
  EXPECT_EQ(conformance::PluginFormulations(),
            std::vector<std::string>{PenaltyFormulation().info.name});
  EXPECT_TRUE(conformance::InstantiatedFormulationsAre(conformance::PluginFormulations()));
}

}  // namespace
}  // namespace quasidyn::plugin_test
