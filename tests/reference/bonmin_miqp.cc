#include "bonmin_miqp.h"

#include <BonBonminSetup.hpp>
#include <BonCbc.hpp>
#include <BonTMINLP.hpp>
#include <algorithm>
#include <chrono>
#include <limits>
#include <vector>

namespace quasidyn::reference {
namespace {

using Ipopt::Index;
using Ipopt::Number;

constexpr double kBonminInfinity = 1e19;  // Ipopt's "no bound"

// The MIQP as a TMINLP (header).
class MiqpTminlp : public Bonmin::TMINLP {
 public:
  explicit MiqpTminlp(const MiqpProblem& problem) : problem_(problem) {
    const QpProblem& p = problem.continuous;
    n_ = p.Q.rows();
    lower_.assign(n_, -kBonminInfinity);
    upper_.assign(n_, kBonminInfinity);
    type_.assign(n_, CONTINUOUS);
    for (int i = 0; i < p.G.rows(); ++i) {
      const int begin = p.G.row_start(i), end = p.G.row_start(i + 1);
      if (end - begin == 1 && p.G.value(begin) != 0.0) {
        const int j = p.G.column(begin);
        const double bound = p.h[i] / p.G.value(begin);
        if (p.G.value(begin) > 0) {
          lower_[j] = std::max(lower_[j], bound);
        } else {
          upper_[j] = std::min(upper_[j], bound);
        }
        continue;
      }
      rows_.push_back(i);
    }
    for (size_t k = 0; k < problem.binaries.size(); ++k) {
      const int j = problem.binaries[k];
      const int fixed = problem.fixed.empty() ? -1 : problem.fixed[k];
      if (fixed >= 0) {
        type_[j] = INTEGER;
        lower_[j] = upper_[j] = fixed;
      } else {
        type_[j] = BINARY;
        lower_[j] = std::max(lower_[j], 0.0);
        upper_[j] = std::min(upper_[j], 1.0);
        if (lower_[j] > 0 || upper_[j] < 1) type_[j] = INTEGER;  // a row fixes it
      }
    }
    m_ = static_cast<int>(rows_.size()) + p.A.rows();
    for (int i : rows_) jacobian_nonzeros_ += p.G.row_start(i + 1) - p.G.row_start(i);
    jacobian_nonzeros_ += p.A.nonZeros();
    for (int r = 0; r < n_; ++r) {
      for (int e = p.Q.row_start(r); e < p.Q.row_start(r + 1); ++e) {
        if (p.Q.column(e) <= r) hessian_.push_back(e);
      }
    }
  }

  bool get_variables_types(Index n, VariableType* types) override {
    std::copy(type_.begin(), type_.begin() + n, types);
    return true;
  }
  bool get_variables_linearity(Index n, Ipopt::TNLP::LinearityType* types) override {
    const SparseRowMatrix& Q = problem_.continuous.Q;
    for (Index j = 0; j < n; ++j) {
      types[j] =
          Q.row_start(j + 1) > Q.row_start(j) ? Ipopt::TNLP::NON_LINEAR : Ipopt::TNLP::LINEAR;
    }
    return true;
  }
  bool get_constraints_linearity(Index m, Ipopt::TNLP::LinearityType* types) override {
    std::fill(types, types + m, Ipopt::TNLP::LINEAR);
    return true;
  }
  bool get_nlp_info(Index& n, Index& m, Index& nnz_jac_g, Index& nnz_h_lag,
                    Ipopt::TNLP::IndexStyleEnum& index_style) override {
    n = n_;
    m = m_;
    nnz_jac_g = jacobian_nonzeros_;
    nnz_h_lag = static_cast<Index>(hessian_.size());
    index_style = Ipopt::TNLP::C_STYLE;
    return true;
  }
  bool get_bounds_info(Index n, Number* x_l, Number* x_u, Index m, Number* g_l,
                       Number* g_u) override {
    std::copy(lower_.begin(), lower_.begin() + n, x_l);
    std::copy(upper_.begin(), upper_.begin() + n, x_u);
    const QpProblem& p = problem_.continuous;
    Index row = 0;
    for (int i : rows_) {
      g_l[row] = p.h[i];
      g_u[row++] = kBonminInfinity;
    }
    for (int i = 0; i < p.A.rows(); ++i) {
      g_l[row] = g_u[row] = p.b[i];
      ++row;
    }
    return row == m;
  }
  bool get_starting_point(Index n, bool init_x, Number* x, bool, Number*, Number*, Index, bool,
                          Number*) override {
    if (!init_x) return true;
    for (Index j = 0; j < n; ++j) x[j] = std::clamp(0.0, lower_[j], upper_[j]);
    return true;
  }
  bool eval_f(Index n, const Number* x, bool, Number& value) override {
    const Eigen::Map<const Eigen::VectorXd> v(x, n);
    Eigen::VectorXd Qx;
    problem_.continuous.Q.Multiply(v, &Qx);
    value = 0.5 * v.dot(Qx) + problem_.continuous.c.dot(v);
    return true;
  }
  bool eval_grad_f(Index n, const Number* x, bool, Number* gradient) override {
    const Eigen::Map<const Eigen::VectorXd> v(x, n);
    Eigen::VectorXd Qx;
    problem_.continuous.Q.Multiply(v, &Qx);
    Eigen::Map<Eigen::VectorXd>(gradient, n) = Qx + problem_.continuous.c;
    return true;
  }
  bool eval_g(Index, const Number* x, bool, Index, Number* g) override {
    const QpProblem& p = problem_.continuous;
    Index row = 0;
    const auto dot = [x](const SparseRowMatrix& M, int i) {
      double sum = 0;
      for (int e = M.row_start(i); e < M.row_start(i + 1); ++e) sum += M.value(e) * x[M.column(e)];
      return sum;
    };
    for (int i : rows_) g[row++] = dot(p.G, i);
    for (int i = 0; i < p.A.rows(); ++i) g[row++] = dot(p.A, i);
    return true;
  }
  bool eval_jac_g(Index, const Number*, bool, Index, Index, Index* iRow, Index* jCol,
                  Number* values) override {
    const QpProblem& p = problem_.continuous;
    Index row = 0, k = 0;
    const auto emit = [&](const SparseRowMatrix& M, int i) {
      for (int e = M.row_start(i); e < M.row_start(i + 1); ++e, ++k) {
        if (values == nullptr) {
          iRow[k] = row;
          jCol[k] = M.column(e);
        } else {
          values[k] = M.value(e);
        }
      }
      ++row;
    };
    for (int i : rows_) emit(p.G, i);
    for (int i = 0; i < p.A.rows(); ++i) emit(p.A, i);
    return true;
  }
  bool eval_h(Index, const Number*, bool, Number obj_factor, Index, const Number*, bool, Index,
              Index* iRow, Index* jCol, Number* values) override {
    const SparseRowMatrix& Q = problem_.continuous.Q;
    for (size_t k = 0; k < hessian_.size(); ++k) {
      const int e = hessian_[k];
      if (values == nullptr) {
        // The row of entry e: the last row whose start is <= e.
        const int* starts = Q.row_start_data();
        iRow[k] =
            static_cast<Index>(std::upper_bound(starts, starts + Q.rows() + 1, e) - starts) - 1;
        jCol[k] = Q.column(e);
      } else {
        values[k] = obj_factor * Q.value(e);
      }
    }
    return true;
  }
  void finalize_solution(SolverReturn status, Index n, const Number* x, Number value) override {
    status_ = status;
    if (x != nullptr) x_ = Eigen::Map<const Eigen::VectorXd>(x, n);
    objective_ = value;
  }
  const BranchingInfo* branchingInfo() const override { return nullptr; }
  const SosInfo* sosConstraints() const override { return nullptr; }

  SolverReturn status_ = MINLP_ERROR;
  Eigen::VectorXd x_;
  double objective_ = 0;

 private:
  const MiqpProblem& problem_;
  int n_ = 0, m_ = 0, jacobian_nonzeros_ = 0;
  std::vector<double> lower_, upper_;
  std::vector<VariableType> type_;
  std::vector<int> rows_;     // rows of G kept as constraints
  std::vector<int> hessian_;  // entries of Q on or below the diagonal
};

const char* StatusText(Bonmin::Bab::MipStatuses status) {
  switch (status) {
    case Bonmin::Bab::FeasibleOptimal:
      return "optimal";
    case Bonmin::Bab::ProvenInfeasible:
      return "infeasible";
    case Bonmin::Bab::Feasible:
      return "feasible";
    case Bonmin::Bab::UnboundedOrInfeasible:
      return "unbounded_or_infeasible";
    case Bonmin::Bab::NoSolutionKnown:
      return "no_solution_known";
    default:
      return "other";
  }
}

}  // namespace

BonminResult SolveWithBonmin(const MiqpProblem& problem, const BonminSettings& settings) {
  Ipopt::SmartPtr<MiqpTminlp> tminlp = new MiqpTminlp(problem);
  Bonmin::BonminSetup setup;
  setup.initializeOptionsAndJournalist();
  Ipopt::SmartPtr<Ipopt::OptionsList> options = setup.options();
  options->SetStringValue("bonmin.algorithm", settings.algorithm);
  options->SetNumericValue("bonmin.allowable_gap", settings.absolute_gap);
  options->SetNumericValue("bonmin.allowable_fraction_gap", settings.relative_gap);
  options->SetNumericValue("bonmin.time_limit", settings.time_limit_seconds);
  options->SetIntegerValue("bonmin.node_limit", settings.node_limit);
  for (const char* log : {"bonmin.bb_log_level", "bonmin.nlp_log_level", "bonmin.lp_log_level",
                          "bonmin.milp_log_level", "bonmin.oa_log_level", "bonmin.fp_log_level"}) {
    options->SetIntegerValue(log, 0);
  }
  options->SetIntegerValue("print_level", 0);
  options->SetStringValue("sb", "yes");
  BonminResult out;
  const auto start = std::chrono::steady_clock::now();
  setup.initialize(Ipopt::GetRawPtr(tminlp));
  Bonmin::Bab bab;
  bab(setup);
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  out.status = StatusText(bab.mipStatus());
  out.optimal = bab.mipStatus() == Bonmin::Bab::FeasibleOptimal;
  out.infeasible = bab.mipStatus() == Bonmin::Bab::ProvenInfeasible;
  out.nodes = bab.numNodes();
  if (bab.bestSolution() != nullptr) {
    out.x = Eigen::Map<const Eigen::VectorXd>(bab.bestSolution(), problem.continuous.Q.rows());
    Eigen::VectorXd Qx;
    problem.continuous.Q.Multiply(out.x, &Qx);
    out.objective =
        0.5 * out.x.dot(Qx) + problem.continuous.c.dot(out.x) + problem.objective_offset;
  }
  return out;
}

}  // namespace quasidyn::reference
