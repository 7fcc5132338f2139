// Our solvers next to Siconos numerics (an independent implementation) on the same problems:
//   * Lemke (ours) vs lcp_lexicolemke, on seeded random LCPs and on the LCP of arm-scene steps;
//   * the pyramid QP of Pang & Tedrake 2021, eq. (10), by our interior point vs Siconos
//     solving the equivalent LCP (v eliminated, EliminatedLcp below) with lcp_lexicolemke and
//     lcp_pgs; lcp_enum only on the small random LCPs (it is 2^n).
// Before the Google Benchmark runs, a table prints the median times side by side as ratios
// (ours / Siconos) with the agreement of the answers.
// Run: build/release/solver_reference_bench --benchmark_repetitions=10
//        --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "bench_scenes.h"
#include "quasidyn/formulations/programs/pyramid_qp.h"
#include "quasidyn/solvers/lemke.h"
#include "quasidyn/testing/step_problems.h"

// Siconos numerics (C API).
#include "LCP_Solvers.h"
#include "LinearComplementarityProblem.h"
#include "NumericsMatrix.h"
#include "SolverOptions.h"
#include "lcp_cst.h"

namespace quasidyn::bench {
namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

// ---------- problems ----------

// M = B Bᵀ + 0.1 I (positive definite), q Gaussian: Lemke always succeeds.
LcpProblem RandomLcp(int n, unsigned seed) {
  std::mt19937 engine(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  MatrixXd B(n, n);
  for (Eigen::Index i = 0; i < B.size(); ++i) B.data()[i] = normal(engine);
  LcpProblem p{B * B.transpose() / n, VectorXd(n)};
  p.M.diagonal().array() += 0.1;
  for (int i = 0; i < n; ++i) p.q[i] = normal(engine);
  return p;
}

struct ArmStepProblem {
  std::string name;
  QpProblem qp;
  LcpProblem lcp;
};

// The LCP of the QP's KKT conditions with v eliminated (Pang & Tedrake 2021, eq. (9) with
// the impedance cost of eq. (10a)): Qv + c = Gᵀβ, w = Gv − h >= 0, β >= 0, wᵀβ = 0 give
// v = Q⁻¹(Gᵀβ − c) and w = M β + q with M = G Q⁻¹ Gᵀ, q = −G Q⁻¹ c − h. Requires Q ≻ 0.
LcpProblem EliminatedLcp(const QpProblem& qp) {
  const MatrixXd Q = qp.Q.ToDense(), G = qp.G.ToDense();
  const Eigen::LLT<MatrixXd> factor(Q);
  if (factor.info() != Eigen::Success) throw std::runtime_error("EliminatedLcp: Q is not PD");
  const MatrixXd Q_inverse_Gt = factor.solve(G.transpose());
  LcpProblem lcp{G * Q_inverse_Gt, -G * factor.solve(qp.c) - qp.h};
  lcp.M = 0.5 * (lcp.M + lcp.M.transpose()).eval();  // symmetric up to rounding
  return lcp;
}

// The pyramid QP and its LCP at t = 0.5 s (approach), 2 s (grasp) and 4 s (carry).
const std::vector<ArmStepProblem>& ArmProblems() {
  static const std::vector<ArmStepProblem> problems = [] {
    const ScenePtr scene = SceneOf(Example::kArmCubes);
    const testing::ProgramSettings settings = testing::SceneProgramSettings(*scene);
    std::vector<ArmStepProblem> out;
    for (const double t : {0.5, 2.0, 4.0}) {
      const SceneState state =
          AdvanceWithQp(Example::kArmCubes, static_cast<int>(t / scene->time_step + 0.5));
      const testing::OwnedStepProblem step(scene, settings, state.x.q, state.u);
      ArmStepProblem p;
      p.name = "arm t=" + std::to_string(t).substr(0, 3) + "s";
      BuildPyramidQp(step.get(), &p.qp);
      p.lcp = EliminatedLcp(p.qp);
      out.push_back(std::move(p));
    }
    return out;
  }();
  return problems;
}

// ---------- Siconos ----------

struct SiconosLcp {
  NumericsMatrix* M = nullptr;
  VectorXd q;
  LinearComplementarityProblem problem{};
  explicit SiconosLcp(const LcpProblem& p) : q(p.q) {
    const int n = static_cast<int>(p.q.size());
    M = NM_create(NM_DENSE, n, n);
    std::copy(p.M.data(), p.M.data() + n * n, M->matrix0);  // both column-major
    problem = LinearComplementarityProblem{n, M, q.data()};
  }
  ~SiconosLcp() { NM_free(M); }
  SiconosLcp(const SiconosLcp&) = delete;
  SiconosLcp& operator=(const SiconosLcp&) = delete;
};

enum class SiconosMethod { kLexicoLemke, kPgs, kEnum };

const char* Name(SiconosMethod method) {
  switch (method) {
    case SiconosMethod::kLexicoLemke:
      return "lexicolemke";
    case SiconosMethod::kPgs:
      return "pgs";
    case SiconosMethod::kEnum:
      return "enum";
  }
  return "?";
}

struct SiconosAnswer {
  int info = -1;  // 0 = solved
  VectorXd z, w;
};

SiconosAnswer SolveSiconos(SiconosLcp& lcp, SiconosMethod method) {
  const int n = lcp.problem.size;
  SiconosAnswer a{-1, VectorXd::Zero(n), VectorXd::Zero(n)};
  switch (method) {
    case SiconosMethod::kLexicoLemke: {
      SolverOptions* options = solver_options_create(SICONOS_LCP_LEMKE);
      lcp_lexicolemke(&lcp.problem, a.z.data(), a.w.data(), &a.info, options);
      solver_options_delete(options);  // frees the contents (Siconos 4.4)
      free(options);                   // and the struct itself
      break;
    }
    case SiconosMethod::kPgs: {
      SolverOptions* options = solver_options_create(SICONOS_LCP_PGS);
      options->iparam[SICONOS_IPARAM_MAX_ITER] = 20000;
      options->dparam[SICONOS_DPARAM_TOL] = 1e-9;
      lcp_pgs(&lcp.problem, a.z.data(), a.w.data(), &a.info, options);
      solver_options_delete(options);  // frees the contents (Siconos 4.4)
      free(options);                   // and the struct itself
      break;
    }
    case SiconosMethod::kEnum: {
      SolverOptions* options = solver_options_create(SICONOS_LCP_ENUM);
      lcp_enum_init(&lcp.problem, options, 1);
      lcp_enum(&lcp.problem, a.z.data(), a.w.data(), &a.info, options);
      lcp_enum_reset(&lcp.problem, options, 1);
      solver_options_delete(options);  // frees the contents (Siconos 4.4)
      free(options);                   // and the struct itself
      break;
    }
  }
  return a;
}

// ---------- the side-by-side table ----------

// Median wall time [s] of `run` over 15 samples, each long enough (>= 2 ms) to time reliably.
double MedianSeconds(const std::function<void()>& run) {
  using Clock = std::chrono::steady_clock;
  int inner = 1;
  for (;;) {
    const auto start = Clock::now();
    for (int k = 0; k < inner; ++k) run();
    if (std::chrono::duration<double>(Clock::now() - start).count() > 2e-3 || inner > 4096) break;
    inner *= 2;
  }
  std::vector<double> samples;
  for (int s = 0; s < 15; ++s) {
    const auto start = Clock::now();
    for (int k = 0; k < inner; ++k) run();
    samples.push_back(std::chrono::duration<double>(Clock::now() - start).count() / inner);
  }
  std::nth_element(samples.begin(), samples.begin() + 7, samples.end());
  return samples[7];
}

// Largest violation of the LCP conditions by z: ‖min(z, Mz + q)‖∞ (the natural residual).
double NaturalResidual(const LcpProblem& p, const VectorXd& z) {
  return (p.M * z + p.q).cwiseMin(z).cwiseAbs().maxCoeff();
}

void PrintRow(const std::string& problem, const std::string& ours, double ours_time,
              const std::string& theirs, double their_time, const std::string& agreement) {
  std::printf("%-16s %-14s %10.1f us  %-20s %10.1f us  %7.2f   %s\n", problem.c_str(), ours.c_str(),
              ours_time * 1e6, theirs.c_str(), their_time * 1e6, ours_time / their_time,
              agreement.c_str());
}

void PrintSideBySide() {
  std::printf(
      "\nSide by side (median wall time; ratio = ours / Siconos; < 1 means ours is "
      "faster)\n");
  std::printf("%-16s %-14s %13s  %-20s %13s  %7s   %s\n", "problem", "ours", "time",
              "Siconos numerics", "time", "ratio", "agreement");
  char buffer[160];
  for (const int n : {10, 30, 100}) {
    const LcpProblem p = RandomLcp(n, 1000 + n);
    LemkeSolver lemke;
    lemke.Setup(n);
    const LcpResult ours = lemke.Solve(p);
    const double ours_time = MedianSeconds([&] { lemke.Solve(p); });
    std::vector<SiconosMethod> methods = {SiconosMethod::kLexicoLemke};
    if (n <= 10) methods.push_back(SiconosMethod::kEnum);
    for (const SiconosMethod method : methods) {
      SiconosLcp lcp(p);
      const SiconosAnswer theirs = SolveSiconos(lcp, method);
      const double their_time = MedianSeconds([&] { SolveSiconos(lcp, method); });
      // M ≻ 0: the solution is unique, so z must agree.
      std::snprintf(buffer, sizeof buffer, "info=%d ours=%s |dz|=%.1e", theirs.info,
                    std::string(ToString(ours.status)).c_str(),
                    (ours.z - theirs.z).lpNorm<Eigen::Infinity>());
      PrintRow("random n=" + std::to_string(n), "lemke", ours_time,
               std::string("lcp_") + Name(method), their_time, buffer);
    }
  }
  for (const ArmStepProblem& p : ArmProblems()) {
    const std::string label = p.name + " m=" + std::to_string(p.lcp.q.size());
    // v = Q⁻¹(Gᵀz − c) is unique (Q ≻ 0) even where z is not (M = G Q⁻¹ Gᵀ is singular).
    const Eigen::LLT<MatrixXd> Q_factor(p.qp.Q.ToDense());
    const MatrixXd G = p.qp.G.ToDense();
    const auto velocity = [&](const VectorXd& z) {
      return VectorXd(Q_factor.solve(G.transpose() * z - p.qp.c));
    };
    LemkeSolver lemke;
    lemke.Setup(static_cast<int>(p.lcp.q.size()));
    const LcpResult ours_lcp = lemke.Solve(p.lcp);
    const double lemke_time = MedianSeconds([&] { lemke.Solve(p.lcp); });
    QpSolver qp_solver;
    const QpSettings qp_settings = ContactQpSettings();
    qp_solver.Setup(p.qp, qp_settings);
    const QpResult ours_qp = qp_solver.Solve();
    const double qp_time = MedianSeconds([&] { qp_solver.Solve(); });
    for (const SiconosMethod method : {SiconosMethod::kLexicoLemke, SiconosMethod::kPgs}) {
      SiconosLcp lcp(p.lcp);
      const SiconosAnswer theirs = SolveSiconos(lcp, method);
      const double their_time = MedianSeconds([&] { SolveSiconos(lcp, method); });
      const VectorXd v_theirs = velocity(theirs.z);
      if (method == SiconosMethod::kLexicoLemke) {
        std::snprintf(buffer, sizeof buffer, "info=%d ours=%s |dv|=%.1e res=%.1e/%.1e", theirs.info,
                      std::string(ToString(ours_lcp.status)).c_str(),
                      (velocity(ours_lcp.z) - v_theirs).lpNorm<Eigen::Infinity>(),
                      NaturalResidual(p.lcp, ours_lcp.z), NaturalResidual(p.lcp, theirs.z));
        PrintRow(label, "lemke", lemke_time, "lcp_lexicolemke", their_time, buffer);
      }
      std::snprintf(buffer, sizeof buffer, "info=%d ours=%s |dv|=%.1e res(theirs)=%.1e",
                    theirs.info, std::string(ToString(ours_qp.status)).c_str(),
                    (ours_qp.x - v_theirs).lpNorm<Eigen::Infinity>(),
                    NaturalResidual(p.lcp, theirs.z));
      PrintRow(label, "qp (ipm)", qp_time, std::string("lcp_") + Name(method), their_time, buffer);
    }
  }
  std::printf("\n");
}

// ---------- Google Benchmark registrations ----------

void BM_OurLemke(benchmark::State& state, const LcpProblem* p) {
  LemkeSolver solver;
  solver.Setup(static_cast<int>(p->q.size()));
  for (auto _ : state) benchmark::DoNotOptimize(solver.Solve(*p).z.data());
}

void BM_Siconos(benchmark::State& state, const LcpProblem* p, SiconosMethod method) {
  SiconosLcp lcp(*p);
  for (auto _ : state) benchmark::DoNotOptimize(SolveSiconos(lcp, method).z.data());
}

void BM_OurQp(benchmark::State& state, const QpProblem* p) {
  QpSolver solver;
  solver.Setup(*p, ContactQpSettings());
  for (auto _ : state) benchmark::DoNotOptimize(solver.Solve().x.data());
}

void RegisterBenchmarks() {
  static std::vector<LcpProblem> random;
  for (const int n : {10, 30, 100}) random.push_back(RandomLcp(n, 1000 + n));
  for (const LcpProblem& p : random) {
    const std::string n = std::to_string(p.q.size());
    benchmark::RegisterBenchmark(("random_n" + n + "/ours_lemke").c_str(), BM_OurLemke, &p)
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(("random_n" + n + "/siconos_lexicolemke").c_str(), BM_Siconos, &p,
                                 SiconosMethod::kLexicoLemke)
        ->Unit(benchmark::kMicrosecond);
  }
  for (const ArmStepProblem& p : ArmProblems()) {
    std::string name = p.name;
    std::replace(name.begin(), name.end(), ' ', '_');
    benchmark::RegisterBenchmark((name + "/ours_qp").c_str(), BM_OurQp, &p.qp)
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark((name + "/ours_lemke").c_str(), BM_OurLemke, &p.lcp)
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark((name + "/siconos_lexicolemke").c_str(), BM_Siconos, &p.lcp,
                                 SiconosMethod::kLexicoLemke)
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark((name + "/siconos_pgs").c_str(), BM_Siconos, &p.lcp,
                                 SiconosMethod::kPgs)
        ->Unit(benchmark::kMicrosecond);
  }
}

}  // namespace
}  // namespace quasidyn::bench

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  quasidyn::bench::PrintSideBySide();
  quasidyn::bench::RegisterBenchmarks();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
