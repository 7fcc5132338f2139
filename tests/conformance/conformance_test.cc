// The conformance suite (formulation_conformance.h) over every formulation this program's
// registry holds: the built-in ones (formulations/builtin.cc). tests/plugin/ instantiates the same
// suite over the plug-in it registers.

#include <gtest/gtest.h>

#include "formulation_conformance.h"

namespace quasidyn::conformance {
namespace {

INSTANTIATE_TEST_SUITE_P(Registry, FormulationConformance,
                         ::testing::ValuesIn(RegisteredFormulations()), FormulationTestName);

// Every formulation of the registry has every check, and this program registers no plug-in.
TEST(ConformanceSuite, CoversEveryRegisteredFormulation) {
  EXPECT_TRUE(InstantiatedFormulationsAre(RegisteredFormulations()));
  EXPECT_TRUE(PluginFormulations().empty());
}

}  // namespace
}  // namespace quasidyn::conformance
