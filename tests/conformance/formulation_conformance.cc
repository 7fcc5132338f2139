// The checks of the conformance suite (formulation_conformance.h), one TEST_P each.

#include "formulation_conformance.h"

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "quasidyn/formulations/builtin.h"
#include "quasidyn/kinematics/kinematics.h"
#include "quasidyn/linearization/linearizer.h"
#include "quasidyn/planning/plan_path.h"
#include "quasidyn/planning/rrt.h"
#include "quasidyn/simulation/formulation_comparison.h"
#include "quasidyn/simulation/rollout.h"
#include "quasidyn/stepping/batch_step.h"
#include "quasidyn/testing/malloc_counter.h"
#include "quasidyn/testing/matrix_compare.h"
#include "quasidyn/testing/test_names.h"

namespace quasidyn::conformance {
namespace {

// The checks, as their TEST_P names (InstantiatedFormulationsAre counts them).
const char* const kChecks[] = {"WarmCalcAllocatesNothing",
                               "BatchesAreBitwiseEqualOnOneTwoAndThreeThreads",
                               "DerivativesMatchFiniteDifferences",
                               "AFailedStepKeepsTheState",
                               "CallerMistakesThrowInvalidArgument",
                               "ParametersOutOfRangeAreRefused",
                               "CompareFormulationsRunsIt",
                               "RolloutOfTheScheduleCompletes",
                               "LinearizerGivesAAndB",
                               "PlanReplaysExactly"};

const FormulationPlugin& PluginOf(const std::string& name) {
  return FormulationRegistry::Global().Get(name);
}

// ScenesFor(plugin), once per process and formulation; a formulation that can step none of the
// shared scenes and declares none of its own is a failure of every check.
const std::vector<ConformanceScene>& ScenesOf(const std::string& name) {
  static std::map<std::string, std::vector<ConformanceScene>> cache;
  auto found = cache.find(name);
  if (found == cache.end()) found = cache.emplace(name, ScenesFor(PluginOf(name))).first;
  if (found->second.empty()) {
    ADD_FAILURE() << name << " steps none of the conformance scenes: declare one in "
                  << "FormulationPlugin::conformance_scenes";
  }
  return found->second;
}

std::shared_ptr<const StepModel> ModelOn(const ConformanceScene& s, const std::string& name) {
  return MakeStepModel(s.scene, FormulationChoice(name));
}

// Every entry equal bit for bit (and the same shape).
::testing::AssertionResult SameBits(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols())
    return ::testing::AssertionFailure() << "shapes " << a.rows() << " x " << a.cols() << " and "
                                         << b.rows() << " x " << b.cols();
  for (Eigen::Index k = 0; k < a.size(); ++k) {
    if (std::memcmp(&a.data()[k], &b.data()[k], sizeof(double)) != 0)
      return ::testing::AssertionFailure()
             << "entry " << k << ": " << a.data()[k] << " vs " << b.data()[k] << " (differ by "
             << a.data()[k] - b.data()[k] << ")";
  }
  return ::testing::AssertionSuccess();
}

// x as one vector: q, then v (empty for a configuration state).
Eigen::VectorXd Stacked(const State& x) {
  Eigen::VectorXd out(x.q.size() + x.v.size());
  out << x.q, x.v;
  return out;
}

// A state and the command of the step from it.
struct Probe {
  State x;
  Eigen::VectorXd u;
};

// The state after `steps` steps of the scene's schedule under `model` and the scheduled command of
// the next step (StepModel::ScheduledCommand, whatever the model's command is).
::testing::AssertionResult ScheduledProbe(const StepModel& model, int steps, Probe* probe) {
  const std::unique_ptr<StepData> data = model.CreateData();
  const double h = model.time_step();
  State x = InitialState(model);
  for (int k = 1; k <= steps; ++k) {
    model.Calc(x, model.ScheduledCommand(k * h, x), data.get());
    if (!data->result.ok())
      return ::testing::AssertionFailure()
             << "scheduled step " << k << " failed: " << ToString(data->result.status) << ": "
             << data->result.message;
    x = data->result.next;
  }
  probe->u = model.ScheduledCommand((steps + 1) * h, x);
  probe->x = std::move(x);
  return ::testing::AssertionSuccess();
}

// Calls `call` and says whether it threw std::invalid_argument (and with which message).
template <typename Call>
::testing::AssertionResult ThrowsInvalidArgument(Call&& call, const std::string& mentioning = "") {
  try {
    call();
  } catch (const std::invalid_argument& e) {
    if (std::string(e.what()).find(mentioning) == std::string::npos)
      return ::testing::AssertionFailure()
             << "std::invalid_argument without '" << mentioning << "': " << e.what();
    return ::testing::AssertionSuccess() << e.what();
  } catch (const std::exception& e) {
    return ::testing::AssertionFailure() << "another exception: " << e.what();
  }
  return ::testing::AssertionFailure() << "no exception";
}

// The mode the checks ask CalcDiff for: A and B where the formulation has a gradient, else none.
GradientMode DerivativeMode(const StepModel& model) {
  return model.capabilities().differentiable() ? GradientMode::kAAndB : GradientMode::kNone;
}

// ---------------------------------------------------------------------------------------------
// Finite differences of Calc over x = (q, v) and u, each step from a data whose warm start is
// cleared (so each is a function of its (x, u) alone, step_model.h).

// The relative step δ of the differences (δ_k = δ max(1, |x_k|)) and the programs' tolerance τ:
// the loosest default tolerance of the formulations' solvers, the interior-point QP's and SOCP's
// 1e-9 (solvers/qp.h; Lemke's residual 1e-10, the semismooth Newton's 1e-10, the barrier's
// decrement 1e-14 are tighter). A solver accurate to τ gives each difference an error ≈ τ/δ,
// and the truncation error O(δ²) is far below it, so A and B agree with the differences within
// τ/δ = 1e-4 of their largest entry where the derivative exists.
constexpr double kRelativeStep = 1e-5;
constexpr double kSolverTolerance = 1e-9;
constexpr double kDerivativeTolerance = kSolverTolerance / kRelativeStep;

double StepOf(double value) { return kRelativeStep * std::max(1.0, std::abs(value)); }

// x⁺ (q⁺, v⁺ stacked) of a cold step; NaN when it fails.
Eigen::VectorXd ColdStep(const StepModel& model, StepData* data, const State& x,
                         const Eigen::VectorXd& u) {
  model.ClearWarmStart(data);
  model.Calc(x, u, data);
  if (!data->result.ok())
    return Eigen::VectorXd::Constant(x.q.size() + x.v.size(),
                                     std::numeric_limits<double>::quiet_NaN());
  return Stacked(data->result.next);
}

// A = ∂x⁺/∂x by central differences: along each raw coordinate of q (the perturbed q's
// quaternions normalised, as finite_difference.h and the models' A take them), then of v.
Eigen::MatrixXd DifferencesA(const StepModel& model, StepData* data, const Probe& p) {
  const Scene& scene = model.scene();
  const int nq = static_cast<int>(p.x.q.size()), nv = static_cast<int>(p.x.v.size());
  Eigen::MatrixXd A(nq + nv, nq + nv);
  for (int k = 0; k < nq + nv; ++k) {
    State up = p.x, down = p.x;
    double delta;
    if (k < nq) {
      delta = StepOf(p.x.q[k]);
      up.q[k] += delta;
      down.q[k] -= delta;
      NormalizeQuaternions(scene, &up.q);
      NormalizeQuaternions(scene, &down.q);
    } else {
      delta = StepOf(p.x.v[k - nq]);
      up.v[k - nq] += delta;
      down.v[k - nq] -= delta;
    }
    A.col(k) = (ColdStep(model, data, up, p.u) - ColdStep(model, data, down, p.u)) / (2 * delta);
  }
  return A;
}

// B = ∂x⁺/∂u by central differences along each u_k.
Eigen::MatrixXd DifferencesB(const StepModel& model, StepData* data, const Probe& p) {
  Eigen::MatrixXd B(p.x.q.size() + p.x.v.size(), p.u.size());
  for (int k = 0; k < p.u.size(); ++k) {
    const double delta = StepOf(p.u[k]);
    Eigen::VectorXd up = p.u, down = p.u;
    up[k] += delta;
    down[k] -= delta;
    B.col(k) = (ColdStep(model, data, p.x, up) - ColdStep(model, data, p.x, down)) / (2 * delta);
  }
  return B;
}

// ---------------------------------------------------------------------------------------------
// A value out of a parameter's declared range: from its range text "> L" or ">= L" (L itself, or
// L − max(1, |L|)), which the spec's own check must refuse too; for another range (a matrix's),
// the first of a few values the spec refuses. Empty when none is found.
std::optional<Eigen::MatrixXd> ValueOutOfRange(const ParameterSpec& spec, std::string* how) {
  const std::regex bound(R"(^\s*(>=?)\s*([-+0-9.eE]+)\s*$)");
  std::smatch match;
  if (std::regex_match(spec.range, match, bound)) {
    const double lower = std::stod(match[2].str());
    const double value = match[1].str() == ">" ? lower : lower - std::max(1.0, std::abs(lower));
    *how = "range \"" + spec.range + "\"";
    return Eigen::MatrixXd::Constant(1, 1, value);
  }
  if (!spec.problem) return std::nullopt;
  for (const double value : {-1.0, 0.0, -1e300}) {
    const Eigen::MatrixXd candidate = Eigen::MatrixXd::Constant(1, 1, value);
    if (!spec.problem(candidate).empty()) {
      *how = "range \"" + spec.range + "\", refused by its check";
      return candidate;
    }
  }
  return std::nullopt;
}

// The input of a step that must fail: finite (no caller's mistake), so large that the step's
// arithmetic overflows, chosen by the formulation's command (FormulationCapabilities::command),
// at the state `p`:
//   robot positions   u = +max double: the impedance's K_a (u − q_a) overflows for any
//                     stiffness above 1 N/m or N·m/rad (every conformance scene's is);
//   robot velocities  the robots at −max double and u = −max double: their commanded
//                     displacement q_a + h u overflows;
//   object impulses   u = +max double on every object coordinate: the velocities the impulse
//                     gives, M⁻¹ u, overflow for a mass or inertia below 1 kg or kg·m².
Probe OverflowingInput(const StepModel& model, const Probe& p) {
  constexpr double kMax = std::numeric_limits<double>::max();
  Probe out = p;
  switch (model.capabilities().command) {
    case CommandKind::kRobotPositions:
    case CommandKind::kObjectImpulses:
      out.u.setConstant(kMax);
      break;
    case CommandKind::kRobotVelocities:
      out.x.q.tail(model.scene().nq_a).setConstant(-kMax);
      out.u.setConstant(-kMax);
      break;
  }
  return out;
}

}  // namespace

// ---------------------------------------------------------------------------------------------

std::vector<std::string> RegisteredFormulations() {
  std::vector<std::string> names;
  for (const FormulationPlugin* plugin : FormulationRegistry::Global().Plugins())
    names.push_back(plugin->info.name);
  return names;
}

std::vector<std::string> PluginFormulations() {
  FormulationRegistry builtin;
  RegisterBuiltinFormulations(&builtin);
  std::vector<std::string> names;
  for (const std::string& name : RegisteredFormulations())
    if (builtin.Find(name) == nullptr) names.push_back(name);
  return names;
}

std::string FormulationTestName(const ::testing::TestParamInfo<std::string>& info) {
  return testing::GtestName(info.param);
}

::testing::AssertionResult InstantiatedFormulationsAre(const std::vector<std::string>& names) {
  std::map<std::string, std::set<std::string>> checks;  // gtest name of a formulation → checks
  const ::testing::UnitTest& unit = *::testing::UnitTest::GetInstance();
  for (int i = 0; i < unit.total_test_suite_count(); ++i) {
    const ::testing::TestSuite& suite = *unit.GetTestSuite(i);
    if (!std::string(suite.name()).ends_with("/FormulationConformance")) continue;
    for (int j = 0; j < suite.total_test_count(); ++j) {
      const std::string test = suite.GetTestInfo(j)->name();  // "<check>/<formulation>"
      const size_t slash = test.rfind('/');
      checks[test.substr(slash + 1)].insert(test.substr(0, slash));
    }
  }
  std::set<std::string> expected;
  for (const std::string& name : names) expected.insert(testing::GtestName(name));
  const std::set<std::string> all_checks(std::begin(kChecks), std::end(kChecks));
  ::testing::AssertionResult result = ::testing::AssertionSuccess();
  bool ok = true;
  for (const std::string& name : expected) {
    if (checks.count(name) == 0) {
      ok = false;
      result = ::testing::AssertionFailure() << name << " has no conformance test";
    } else if (checks[name] != all_checks) {
      ok = false;
      result = ::testing::AssertionFailure()
               << name << " has " << checks[name].size() << " checks, not " << all_checks.size();
    }
  }
  for (const auto& [name, tests] : checks) {
    if (expected.count(name) == 0) {
      ok = false;
      result = ::testing::AssertionFailure() << name << " is instantiated but not expected";
    }
  }
  return ok ? ::testing::AssertionSuccess() : result;
}

// ---------------------------------------------------------------------------------------------
// The checks.

// A Calc after warm-up with the same contacts makes no heap allocation (step_model.h): on each
// state of the scheduled rollout from step kAllocationWarmUp + 1 on, each state stepped once as
// the warm-up and then counted.
TEST_P(FormulationConformance, WarmCalcAllocatesNothing) {
  if (!testing::MallocCountingAvailable()) GTEST_SKIP() << "malloc counting is off (sanitizers)";
  for (const ConformanceScene& s : ScenesOf(GetParam())) {
    SCOPED_TRACE(s.name);
    const auto model = ModelOn(s, GetParam());
    const auto data = model->CreateData();
    const double h = model->time_step();
    State x = InitialState(*model);
    Eigen::VectorXd u(model->control_size());
    int counted = 0;
    for (int k = 1; k <= s.rollout_steps; ++k) {
      model->ScheduledCommandInto(k * h, x, &u);
      model->Calc(x, u, data.get());  // warm-up
      ASSERT_TRUE(data->result.ok()) << "step " << k << ": " << data->result.message;
      if (k > kAllocationWarmUp) {
        long allocations = 0;
        {
          testing::MallocCounter counter;
          model->Calc(x, u, data.get());
          allocations = counter.count();
        }
        EXPECT_EQ(allocations, 0) << "step " << k;
        ++counted;
      }
      x = data->result.next;
    }
    EXPECT_EQ(counted, s.rollout_steps - kAllocationWarmUp);
  }
}

// BatchStepper (stepping/batch_step.h): steps and, with a gradient, A and B of a batch of points
// on 1, 2 and 3 threads are bitwise equal, each item a lone data's answer for its point after
// ClearWarmStart.
TEST_P(FormulationConformance, BatchesAreBitwiseEqualOnOneTwoAndThreeThreads) {
  for (const ConformanceScene& s : ScenesOf(GetParam())) {
    SCOPED_TRACE(s.name);
    const auto model = ModelOn(s, GetParam());
    const GradientMode mode = DerivativeMode(*model);
    // Eight points: the states of four consecutive scheduled steps around the probe, each under
    // its scheduled command and under that command moved by 1 mm (or 1 mm/s, 1 mN·s) in every
    // entry.
    std::vector<StepPoint> points;
    for (int k = s.probe_step - 2; k < s.probe_step + 2; ++k) {
      Probe p;
      ASSERT_TRUE(ScheduledProbe(*model, k, &p));
      points.push_back({p.x, p.u});
      points.push_back({p.x, (p.u.array() + 1e-3).matrix()});
    }
    const std::vector<StepEvaluation> one = BatchStepper(model, 1).Run(points, mode);
    const std::vector<StepEvaluation> two = BatchStepper(model, 2).Run(points, mode);
    const std::vector<StepEvaluation> three = BatchStepper(model, 3).Run(points, mode);
    ASSERT_EQ(one.size(), points.size());
    ASSERT_EQ(two.size(), points.size());
    ASSERT_EQ(three.size(), points.size());
    const auto lone = model->CreateData();
    int solved = 0;
    for (size_t i = 0; i < points.size(); ++i) {
      SCOPED_TRACE("point " + std::to_string(i));
      solved += one[i].result.ok() ? 1 : 0;
      model->ClearWarmStart(lone.get());
      model->Calc(points[i].x, points[i].u, lone.get());
      model->CalcDiff(mode, lone.get());
      for (const StepEvaluation* e : {&one[i], &two[i], &three[i]}) {
        EXPECT_EQ(e->result.status, lone->result.status);
        EXPECT_EQ(e->result.message, lone->result.message);
        EXPECT_TRUE(SameBits(e->result.next.q, lone->result.next.q));
        EXPECT_TRUE(SameBits(e->result.next.v, lone->result.next.v));
        EXPECT_TRUE(SameBits(e->result.velocity, lone->result.velocity));
        EXPECT_EQ(e->derivatives.status, lone->derivatives.status);
        EXPECT_TRUE(SameBits(e->derivatives.A, lone->derivatives.A));
        EXPECT_TRUE(SameBits(e->derivatives.B, lone->derivatives.B));
      }
    }
    EXPECT_EQ(solved, static_cast<int>(points.size()));
  }
}

// CalcDiff's A = ∂x⁺/∂x and B = ∂x⁺/∂u (step_model.h) against central differences of Calc, at
// each scene's probe state (kDerivativeTolerance above: τ/δ relative to A's and B's largest
// entry).
TEST_P(FormulationConformance, DerivativesMatchFiniteDifferences) {
  const FormulationCapabilities& can = PluginOf(GetParam()).info.capabilities;
  if (!can.differentiable()) GTEST_SKIP() << "capabilities().no_gradient: " << can.no_gradient;
  int checked = 0;
  for (const ConformanceScene& s : ScenesOf(GetParam())) {
    if (!s.finite_differences) continue;
    SCOPED_TRACE(s.name);
    const auto model = ModelOn(s, GetParam());
    Probe p;
    ASSERT_TRUE(ScheduledProbe(*model, s.probe_step, &p));
    const auto data = model->CreateData();
    model->Calc(p.x, p.u, data.get());
    ASSERT_TRUE(data->result.ok()) << data->result.message;
    model->CalcDiff(GradientMode::kAAndB, data.get());
    ASSERT_TRUE(data->derivatives.ok()) << data->derivatives.message;
    const Eigen::MatrixXd A = data->derivatives.A, B = data->derivatives.B;
    const auto scratch = model->CreateData();
    const Eigen::MatrixXd A_fd = DifferencesA(*model, scratch.get(), p);
    const Eigen::MatrixXd B_fd = DifferencesB(*model, scratch.get(), p);
    EXPECT_LT(testing::RelativeError(A, A_fd), kDerivativeTolerance)
        << "A\n"
        << A << "\nfinite differences\n"
        << A_fd;
    EXPECT_LT(testing::RelativeError(B, B_fd), kDerivativeTolerance)
        << "B\n"
        << B << "\nfinite differences\n"
        << B_fd;
    std::printf("%s %s: relative error A %.2e, B %.2e\n", GetParam().c_str(), s.name.c_str(),
                testing::RelativeError(A, A_fd), testing::RelativeError(B, B_fd));
    ++checked;
  }
  EXPECT_GT(checked, 0) << "no conformance scene for the finite-difference check";
}

// A step whose arithmetic overflows (OverflowingInput: finite input, no caller's mistake) is a
// numerical outcome (docs/architecture.md, "Errors"): a status that is not a success and a
// message, the state kept (next = x, bit for bit), no exception across Calc or CalcDiff; the
// data then steps a valid point as a fresh one does. On the scenes where the formulation has a
// command (a scene without robots gives a robot command no entry).
TEST_P(FormulationConformance, AFailedStepKeepsTheState) {
  int checked = 0;
  for (const ConformanceScene& s : ScenesOf(GetParam())) {
    SCOPED_TRACE(s.name);
    const auto model = ModelOn(s, GetParam());
    if (model->control_size() == 0) continue;
    ++checked;
    Probe p;
    ASSERT_TRUE(ScheduledProbe(*model, s.probe_step, &p));
    const auto data = model->CreateData();
    model->Calc(p.x, p.u, data.get());  // a warm start to keep or drop
    ASSERT_TRUE(data->result.ok()) << data->result.message;
    const Probe overflowing = OverflowingInput(*model, p);
    EXPECT_NO_THROW(model->Calc(overflowing.x, overflowing.u, data.get()));
    const StepResult& result = data->result;
    EXPECT_FALSE(result.ok()) << ToString(result.status);
    EXPECT_FALSE(result.message.empty());
    EXPECT_TRUE(SameBits(result.next.q, overflowing.x.q));
    EXPECT_TRUE(SameBits(result.next.v, overflowing.x.v));
    EXPECT_NO_THROW(model->CalcDiff(DerivativeMode(*model), data.get()));
    if (model->capabilities().differentiable()) {
      EXPECT_FALSE(data->derivatives.ok());
      EXPECT_NE(data->derivatives.message.find("the step failed"), std::string::npos)
          << data->derivatives.message;
    }
    // The failure left nothing behind that changes the next answer once the warm start is gone.
    const auto fresh = model->CreateData();
    model->ClearWarmStart(data.get());
    model->Calc(p.x, p.u, data.get());
    model->Calc(p.x, p.u, fresh.get());
    EXPECT_TRUE(data->result.ok()) << data->result.message;
    EXPECT_TRUE(SameBits(data->result.next.q, fresh->result.next.q));
    EXPECT_TRUE(SameBits(data->result.next.v, fresh->result.next.v));
  }
  EXPECT_GT(checked, 0) << "no conformance scene gives the formulation a command";
}

// A caller's mistake throws std::invalid_argument (step_model.h, docs/architecture.md "Errors"):
// wrong sizes, NaN, a null or another model's data, CalcDiff before Calc, a gradient asked of a
// formulation without one, an external force of the wrong size.
TEST_P(FormulationConformance, CallerMistakesThrowInvalidArgument) {
  for (const ConformanceScene& s : ScenesOf(GetParam())) {
    SCOPED_TRACE(s.name);
    const auto model = ModelOn(s, GetParam());
    const auto other = ModelOn(s, GetParam());
    Probe p;
    ASSERT_TRUE(ScheduledProbe(*model, s.probe_step, &p));
    const auto data = model->CreateData();
    const auto others_data = other->CreateData();
    const bool differentiable = model->capabilities().differentiable();
    const double nan = std::numeric_limits<double>::quiet_NaN();

    EXPECT_TRUE(ThrowsInvalidArgument([&] { model->CalcDiff(GradientMode::kNone, data.get()); }));
    if (differentiable) {
      EXPECT_TRUE(
          ThrowsInvalidArgument([&] { model->CalcDiff(GradientMode::kAAndB, data.get()); }));
    }

    State short_q = p.x;
    short_q.q.conservativeResize(p.x.q.size() - 1);
    EXPECT_TRUE(ThrowsInvalidArgument([&] { model->Calc(short_q, p.u, data.get()); }));
    State wrong_v = p.x;
    wrong_v.v = Eigen::VectorXd::Zero(p.x.v.size() + 1);  // v of a configuration state is empty
    EXPECT_TRUE(ThrowsInvalidArgument([&] { model->Calc(wrong_v, p.u, data.get()); }));
    const Eigen::VectorXd long_u = Eigen::VectorXd::Zero(p.u.size() + 1);
    EXPECT_TRUE(ThrowsInvalidArgument([&] { model->Calc(p.x, long_u, data.get()); }));
    State nan_q = p.x, infinite_q = p.x;
    nan_q.q[0] = nan;
    infinite_q.q[p.x.q.size() - 1] = std::numeric_limits<double>::infinity();
    EXPECT_TRUE(ThrowsInvalidArgument([&] { model->Calc(nan_q, p.u, data.get()); }));
    EXPECT_TRUE(ThrowsInvalidArgument([&] { model->Calc(infinite_q, p.u, data.get()); }));
    if (p.x.v.size() > 0) {
      State nan_v = p.x;
      nan_v.v[0] = nan;
      EXPECT_TRUE(ThrowsInvalidArgument([&] { model->Calc(nan_v, p.u, data.get()); }));
    }
    if (p.u.size() > 0) {
      Eigen::VectorXd nan_u = p.u;
      nan_u[p.u.size() - 1] = nan;
      EXPECT_TRUE(ThrowsInvalidArgument([&] { model->Calc(p.x, nan_u, data.get()); }));
    }
    EXPECT_TRUE(ThrowsInvalidArgument([&] { model->Calc(p.x, p.u, nullptr); }));
    EXPECT_TRUE(ThrowsInvalidArgument([&] { model->Calc(p.x, p.u, others_data.get()); }));
    other->Calc(p.x, p.u, others_data.get());
    EXPECT_TRUE(
        ThrowsInvalidArgument([&] { model->CalcDiff(GradientMode::kNone, others_data.get()); }));
    const auto wrong_force = model->CreateData();
    wrong_force->external_force = Eigen::VectorXd::Zero(model->scene().nv_u + 1);
    EXPECT_TRUE(ThrowsInvalidArgument([&] { model->Calc(p.x, p.u, wrong_force.get()); }));

    // After those refusals the data still steps, and a gradient is refused only where there is
    // none.
    model->Calc(p.x, p.u, data.get());
    EXPECT_TRUE(data->result.ok()) << data->result.message;
    if (!differentiable) {
      EXPECT_TRUE(
          ThrowsInvalidArgument([&] { model->CalcDiff(GradientMode::kBOnly, data.get()); }));
      EXPECT_NO_THROW(model->CalcDiff(GradientMode::kNone, data.get()));
    } else {
      EXPECT_NO_THROW(model->CalcDiff(GradientMode::kBOnly, data.get()));
    }
  }
}

// Each declared parameter (FormulationPlugin::parameters) is checked by MakeStepModel: NaN and
// a value outside its declared range throw std::invalid_argument naming the key.
TEST_P(FormulationConformance, ParametersOutOfRangeAreRefused) {
  const FormulationPlugin& plugin = PluginOf(GetParam());
  if (plugin.parameters.empty()) GTEST_SKIP() << "FormulationPlugin::parameters is empty";
  ASSERT_FALSE(ScenesOf(GetParam()).empty());
  const ConformanceScene& s = ScenesOf(GetParam()).front();
  for (const ParameterSpec& spec : plugin.parameters) {
    SCOPED_TRACE(spec.key);
    const auto choose = [&](const Eigen::MatrixXd& value) {
      FormulationChoice choice(GetParam());
      choice.parameters.Set(spec.key, value, ValueSource{"", 0, spec.key});
      return choice;
    };
    const Eigen::MatrixXd nan =
        Eigen::MatrixXd::Constant(1, 1, std::numeric_limits<double>::quiet_NaN());
    EXPECT_TRUE(ThrowsInvalidArgument([&] { MakeStepModel(s.scene, choose(nan)); }, spec.key));
    std::string how;
    const std::optional<Eigen::MatrixXd> out = ValueOutOfRange(spec, &how);
    ASSERT_TRUE(out.has_value()) << "no value outside the range \"" << spec.range << "\" found";
    SCOPED_TRACE(how + ", value " + std::to_string((*out)(0, 0)));
    ASSERT_TRUE(spec.problem) << "the spec declares a range but no check";
    EXPECT_FALSE(spec.problem(*out).empty()) << "the spec's check accepts a value outside "
                                             << "its declared range";
    EXPECT_TRUE(ThrowsInvalidArgument([&] { MakeStepModel(s.scene, choose(*out)); }, spec.key));
  }
}

// CompareFormulations (simulation/formulation_comparison.h) lists every registered formulation,
// this one included, and runs it on a scene it can step.
TEST_P(FormulationConformance, CompareFormulationsRunsIt) {
  ASSERT_FALSE(ScenesOf(GetParam()).empty());
  const ConformanceScene& s = ScenesOf(GetParam()).front();
  SCOPED_TRACE(s.name);
  ComparisonOptions options;
  options.steps = 5;
  options.reference_refinement = 2;
  const Comparison comparison = CompareFormulations(s.scene, options);
  int rows = 0;
  for (const ComparisonRow& row : comparison.rows) {
    if (row.formulation != GetParam()) continue;
    ++rows;
    EXPECT_TRUE(row.ran()) << row.skipped;
    EXPECT_TRUE(row.failure.empty()) << row.failure;
    EXPECT_TRUE(row.trajectory.completed()) << row.trajectory.message;
    EXPECT_EQ(row.trajectory.steps_done, options.steps);
  }
  EXPECT_EQ(rows, 1);
  EXPECT_EQ(comparison.rows.size(), FormulationRegistry::Global().Plugins().size());
}

// Rollout (simulation/rollout.h) of each scene's schedule completes.
TEST_P(FormulationConformance, RolloutOfTheScheduleCompletes) {
  for (const ConformanceScene& s : ScenesOf(GetParam())) {
    SCOPED_TRACE(s.name);
    const auto model = ModelOn(s, GetParam());
    RolloutOptions options;
    options.steps = s.rollout_steps;
    const Trajectory trajectory = Rollout(*model, options);
    EXPECT_TRUE(trajectory.completed())
        << "stopped after " << trajectory.steps_done << " steps: " << trajectory.message;
    EXPECT_EQ(trajectory.formulation, GetParam());
  }
}

// The one Linearizer (linearization/linearizer.h) gives A and B at each scene's probe state:
// exact when the formulation declares an exact linearisation (bit for bit its own CalcDiff from a
// cleared data when that is its own), log-barrier when it declares a smoothing.
TEST_P(FormulationConformance, LinearizerGivesAAndB) {
  const FormulationCapabilities& can = PluginOf(GetParam()).info.capabilities;
  if (can.exact_linearization.empty() && can.smoothed_linearization.empty())
    GTEST_SKIP() << "capabilities() declare neither exact_linearization nor "
                    "smoothed_linearization";
  for (const ConformanceScene& s : ScenesOf(GetParam())) {
    SCOPED_TRACE(s.name);
    const auto model = ModelOn(s, GetParam());
    Probe p;
    ASSERT_TRUE(ScheduledProbe(*model, s.probe_step, &p));
    const int nx = static_cast<int>(p.x.q.size() + p.x.v.size());
    const int nu = static_cast<int>(p.u.size());
    for (const LinearizationMethod method :
         {LinearizationMethod::kExact, LinearizationMethod::kLogBarrier}) {
      const std::string& declared = method == LinearizationMethod::kExact
                                        ? can.exact_linearization
                                        : can.smoothed_linearization;
      if (declared.empty()) continue;
      SCOPED_TRACE(LinearizationMethodName(method));
      LinearizationOptions options;
      options.method = method;
      Linearizer linearizer(*model, options);
      EXPECT_EQ(linearizer.formulation(), GetParam());
      EXPECT_EQ(linearizer.model().formulation().name, declared);
      const Linearization l = linearizer.Linearize(p.x, p.u);
      ASSERT_TRUE(l.ok()) << l.message;
      EXPECT_EQ(l.A.rows(), nx);
      EXPECT_EQ(l.A.cols(), nx);
      EXPECT_EQ(l.B.rows(), nx);
      EXPECT_EQ(l.B.cols(), nu);
      EXPECT_TRUE(l.A.allFinite() && l.B.allFinite());
      if (method == LinearizationMethod::kExact && declared == GetParam()) {
        const auto data = model->CreateData();
        model->Calc(p.x, p.u, data.get());
        model->CalcDiff(GradientMode::kAAndB, data.get());
        ASSERT_TRUE(data->derivatives.ok()) << data->derivatives.message;
        EXPECT_TRUE(SameBits(l.A, data->derivatives.A));
        EXPECT_TRUE(SameBits(l.B, data->derivatives.B));
      }
    }
  }
}

// Where the capabilities allow planning (planning/rrt.h, CheckPlannableFormulation), a small
// RRT through contact (10 nodes, a fixed seed) on a scene with a planning block grows a tree, and
// the path to its last node replays bit for bit (plan_path.h).
TEST_P(FormulationConformance, PlanReplaysExactly) {
  const FormulationPlugin& plugin = PluginOf(GetParam());
  try {
    CheckPlannableFormulation(plugin.info);
  } catch (const std::invalid_argument& e) {
    GTEST_SKIP() << e.what();
  }
  const ConformanceScene* planned = nullptr;
  for (const ConformanceScene& s : ScenesOf(GetParam()))
    if (planned == nullptr && s.scene->planning) planned = &s;
  if (planned == nullptr) GTEST_SKIP() << "no conformance scene it steps has a planning block";
  SCOPED_TRACE(planned->name);
  const ScenePtr& scene = planned->scene;
  PlanningSettings settings = *scene->planning;
  settings.max_nodes = 10;
  settings.seed = 1;
  if (plugin.info.capabilities.smoothed_linearization.empty())
    settings.method = ReachabilityMethod::kExact;  // its exact B
  FormulationChoice stepping = PlanningFormulation(*scene, settings);
  stepping.name = GetParam();
  const PlanResult plan = PlanThroughContact(scene, stepping, settings);
  EXPECT_EQ(plan.stepping.name, GetParam());
  ASSERT_GT(plan.nodes.size(), 1u) << plan.message;
  EXPECT_GT(plan.statistics.extensions, 0);
  // The tree was grown by this formulation's steps: they moved an object (its coordinates q_u by
  // more than 1 cm or 0.01 rad somewhere in the tree).
  double moved = 0.0;
  for (const PlanNode& node : plan.nodes)
    moved = std::max(moved, (node.q - scene->q0).head(scene->nq_u).cwiseAbs().maxCoeff());
  EXPECT_GT(moved, 0.01);
  // The path to the last node added, root first.
  std::vector<int> path;
  for (int n = static_cast<int>(plan.nodes.size()) - 1; n >= 0; n = plan.nodes[n].parent)
    path.insert(path.begin(), n);
  const auto model = MakeStepModel(scene, plan.stepping);
  const ReplayedPath replay = ReplayPath(*model, plan.nodes, path);
  EXPECT_TRUE(replay.trajectory.completed()) << replay.trajectory.message;
  EXPECT_EQ(replay.max_node_deviation, 0.0);
  const ReplayedPath best = ReplayPlan(scene, plan);
  EXPECT_TRUE(best.trajectory.completed()) << best.trajectory.message;
  EXPECT_EQ(best.max_node_deviation, 0.0);
}

}  // namespace quasidyn::conformance
