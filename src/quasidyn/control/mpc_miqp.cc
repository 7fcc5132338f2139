#include "quasidyn/control/mpc_miqp.h"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "quasidyn/common/argument_check.h"

namespace quasidyn {
namespace {

using Eigen::MatrixXd;
using Eigen::VectorXd;

// One row being assembled: (column, value) pairs, summed per column and appended in order
// (every entry kept, zeros included, so the pattern depends on the sizes only).
class RowBuilder {
 public:
  void Add(int column, double value) { entries_.emplace_back(column, value); }
  void AppendTo(SparseRowMatrix* M) {
    std::sort(entries_.begin(), entries_.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    M->AppendRow();
    for (size_t e = 0; e < entries_.size(); ++e) {
      double value = entries_[e].second;
      while (e + 1 < entries_.size() && entries_[e + 1].first == entries_[e].first)
        value += entries_[++e].second;
      M->Append(entries_[e].first, value);
    }
    entries_.clear();
  }

 private:
  std::vector<std::pair<int, double>> entries_;
};

// [min, max] of a·y over the box [lower, upper].
std::pair<double, double> Range(const Eigen::Ref<const Eigen::RowVectorXd>& a,
                                const VectorXd& lower, const VectorXd& upper) {
  double low = 0, high = 0;
  for (Eigen::Index j = 0; j < a.size(); ++j) {
    const double p = a[j] * lower[j], q = a[j] * upper[j];
    low += std::min(p, q);
    high += std::max(p, q);
  }
  return {low, high};
}

VectorXd DiagonalOr(const VectorXd& given, int size, double value) {
  return given.size() > 0 ? given : VectorXd::Constant(size, value);
}

}  // namespace

MpcSettings ResolvedMpcSettings(const MpcSettings& settings, int nx, int na) {
  constexpr const char* kWhere = "MpcSettings";
  MpcSettings s = settings;
  s.state_weight = DiagonalOr(settings.state_weight, nx, 1.0);
  s.terminal_weight =
      settings.terminal_weight.size() > 0 ? settings.terminal_weight : s.state_weight;
  s.force_weight = DiagonalOr(settings.force_weight, na, 1.0);
  CheckVector(kWhere, "target", s.target, nx, "n_x");
  CheckVector(kWhere, "state_weight", s.state_weight, nx, "n_x");
  CheckVector(kWhere, "terminal_weight", s.terminal_weight, nx, "n_x");
  CheckVector(kWhere, "force_weight", s.force_weight, na, "n_a");
  CheckVector(kWhere, "state_lower", s.state_lower, nx, "n_x");
  CheckVector(kWhere, "state_upper", s.state_upper, nx, "n_x");
  CheckVector(kWhere, "force_lower", s.force_lower, na, "n_a");
  CheckVector(kWhere, "force_upper", s.force_upper, na, "n_a");
  QUASIDYN_CHECK_ARGUMENT(s.horizon >= 1, kWhere,
                          "horizon must be >= 1 (got " + std::to_string(s.horizon) + ")");
  QUASIDYN_CHECK_ARGUMENT((s.force_weight.array() > 0).all(), kWhere, "force_weight must be > 0");
  QUASIDYN_CHECK_ARGUMENT(
      (s.state_weight.array() >= 0).all() && (s.terminal_weight.array() >= 0).all(), kWhere,
      "state_weight and terminal_weight must be >= 0");
  QUASIDYN_CHECK_ARGUMENT(s.impulse_margin >= 1, kWhere, "impulse_margin must be >= 1");
  return s;
}

void BuildMpcMiqp(const MpcLinearModel& model, const MpcSettings& settings, MpcMiqp* out) {
  constexpr const char* kWhere = "BuildMpcMiqp";
  model.Validate(kWhere);
  const int n = model.nv(), nx = model.nx(), na = model.na(), ng = model.ImpulseCount();
  const MpcSettings s = ResolvedMpcSettings(settings, nx, na);
  const int N = s.horizon;
  const double h = model.time_step;
  MpcLayout& L = out->layout;
  L = MpcLayout{N, nx, na, ng};
  const int nvar = L.Variables();

  // Boxes per step (header): X_k+1 for k = 0 … N−1.
  out->state_lower.assign(N, VectorXd());
  out->state_upper.assign(N, VectorXd());
  const VectorXd v_lower = s.state_lower.tail(n), v_upper = s.state_upper.tail(n);
  for (int k = 0; k < N; ++k) {
    VectorXd lower = s.state_lower, upper = s.state_upper;
    lower.head(n) = lower.head(n).cwiseMax(model.q + (k + 1) * h * v_lower);
    upper.head(n) = upper.head(n).cwiseMin(model.q + (k + 1) * h * v_upper);
    out->state_lower[k] = lower;
    out->state_upper[k] = upper;
  }

  // Big-M per pair and step.
  const Eigen::LLT<MatrixXd> mass(model.mass);
  out->impulse_cap.assign(N, VectorXd(ng));
  out->complementarity_cap.assign(N, VectorXd(ng));
  std::vector<signed char> fixed(static_cast<size_t>(N) * ng, -1);
  out->fixed_binaries = 0;
  for (int k = 0; k < N; ++k) {
    const VectorXd& xl = out->state_lower[k];
    const VectorXd& xu = out->state_upper[k];
    // The previous velocity's box: v_0 exactly at k = 0.
    const VectorXd prev_lower = k == 0 ? model.v : v_lower;
    const VectorXd prev_upper = k == 0 ? model.v : v_upper;
    for (size_t i = 0; i < model.contacts.size(); ++i) {
      const MpcContact& c = model.contacts[i];
      const int o = model.ImpulseOffset(static_cast<int>(i));
      const int nd = static_cast<int>(c.rays.rows());
      // c̄: |J_n (v⁺ − v) − h J_n M⁻¹ (B_a τ + τ_free)| / (J_n M⁻¹ J_nᵀ) over the boxes.
      const VectorXd minv_n = mass.solve(c.normal.transpose());
      const double d = c.normal.dot(minv_n);
      const auto [next_low, next_high] = Range(c.normal, xl.tail(n), xu.tail(n));
      const auto [prev_low, prev_high] = Range(c.normal, prev_lower, prev_upper);
      const Eigen::RowVectorXd force_row = h * minv_n.transpose() * model.actuation;
      const auto [force_low, force_high] = Range(force_row, s.force_lower, s.force_upper);
      const double free = h * minv_n.dot(model.free_force);
      const double low = next_low - prev_high - force_high - free;
      const double high = next_high - prev_low - force_low - free;
      const double normal_cap =
          std::max(s.impulse_margin * std::max(std::abs(low), std::abs(high)) / d, 1e-9);
      double sliding_cap = 0;  // λ̄
      for (int j = 0; j < nd; ++j) {
        const auto [ray_low, ray_high] = Range(c.rays.row(j), xl.tail(n), xu.tail(n));
        sliding_cap = std::max({sliding_cap, std::abs(ray_low), std::abs(ray_high)});
      }
      sliding_cap = std::max(sliding_cap, 1e-9);
      VectorXd& gamma_cap = out->impulse_cap[k];
      VectorXd& w_cap = out->complementarity_cap[k];
      gamma_cap[o] = normal_cap;
      gamma_cap.segment(o + 1, nd).setConstant(c.friction * normal_cap);
      gamma_cap[o + 1 + nd] = sliding_cap;
      const auto [gap_low, gap_high] = Range(c.normal, xl.head(n), xu.head(n));
      const double gap_offset = c.phi - c.normal.dot(model.q);
      w_cap[o] = std::max(gap_high + gap_offset, 1e-9);
      for (int j = 0; j < nd; ++j) {
        const auto [ray_low, ray_high] = Range(c.rays.row(j), xl.tail(n), xu.tail(n));
        w_cap[o + 1 + j] = std::max(sliding_cap + ray_high, 1e-9);
      }
      w_cap[o + 1 + nd] = std::max(c.friction * normal_cap, 1e-9);
      if (s.big_m > 0) {
        gamma_cap.segment(o, nd + 2).setConstant(s.big_m);
        w_cap.segment(o, nd + 2).setConstant(s.big_m);
      }
      if (gap_low + gap_offset > 0) {  // cannot close within X_k+1
        signed char* z = fixed.data() + static_cast<size_t>(k) * ng + o;
        z[0] = 0;
        for (int j = 0; j < nd; ++j) z[1 + j] = 0;
        z[1 + nd] = 1;
        out->fixed_binaries += nd + 2;
      }
    }
  }

  // Cost: ½ Xᵀ H X + gᵀ X + constant (header's J).
  QpProblem& qp = out->problem.continuous;
  qp = QpProblem();
  qp.Q.Reset(nvar);
  qp.c = VectorXd::Zero(nvar);
  VectorXd diagonal = VectorXd::Zero(nvar);
  const VectorXd& xd = s.target;
  const VectorXd x0 = (VectorXd(nx) << model.q, model.v).finished();
  out->constant = (x0 - xd).dot(s.state_weight.cwiseProduct(x0 - xd));
  for (int k = 0; k < N; ++k) {
    const VectorXd& w = k + 1 == N ? s.terminal_weight : s.state_weight;
    diagonal.segment(L.State(k), nx) = 2 * w;
    qp.c.segment(L.State(k), nx) = -2 * w.cwiseProduct(xd);
    out->constant += xd.dot(w.cwiseProduct(xd));
    diagonal.segment(L.Force(k), na) = 2 * s.force_weight;
  }
  for (int j = 0; j < nvar; ++j) {
    qp.Q.AppendRow();
    qp.Q.Append(j, diagonal[j]);
  }

  // Equality rows, per step: the dynamics q_{k+1} − q_k − h v_{k+1} = 0 and
  // M v_{k+1} − M v_k − h B_a τ_k − Σ Jᵀγ_k = h τ_free, then the complementarity functions
  // w = a·X + a0 (mpc_linear_model.h, (3)–(5)) as a·X − w = −a0.
  qp.A.Reset(nvar);
  std::vector<double> equality_rhs;
  RowBuilder row;
  const VectorXd mass_v0 = model.mass * model.v;
  for (int k = 0; k < N; ++k) {
    const int x = L.State(k), xp = k > 0 ? L.State(k - 1) : -1;
    for (int r = 0; r < n; ++r) {
      row.Add(x + r, 1.0);
      row.Add(x + n + r, -h);
      if (xp >= 0) row.Add(xp + r, -1.0);
      row.AppendTo(&qp.A);
      equality_rhs.push_back(k == 0 ? model.q[r] : 0.0);
    }
    for (int r = 0; r < n; ++r) {
      for (int j = 0; j < n; ++j) {
        row.Add(x + n + j, model.mass(r, j));
        if (xp >= 0) row.Add(xp + n + j, -model.mass(r, j));
      }
      for (int a = 0; a < na; ++a) row.Add(L.Force(k) + a, -h * model.actuation(r, a));
      for (size_t i = 0; i < model.contacts.size(); ++i) {
        const MpcContact& c = model.contacts[i];
        const int o = L.Impulse(k) + model.ImpulseOffset(static_cast<int>(i));
        row.Add(o, -c.normal[r]);
        for (int j = 0; j < c.rays.rows(); ++j) row.Add(o + 1 + j, -c.rays(j, r));
      }
      row.AppendTo(&qp.A);
      equality_rhs.push_back(h * model.free_force[r] + (k == 0 ? mass_v0[r] : 0.0));
    }
    for (size_t i = 0; i < model.contacts.size(); ++i) {
      const MpcContact& c = model.contacts[i];
      const int o = model.ImpulseOffset(static_cast<int>(i));
      const int nd = static_cast<int>(c.rays.rows());
      const int gamma = L.Impulse(k) + o;
      // w_c = φ + J_n (q_{k+1} − q_0)
      for (int j = 0; j < n; ++j) row.Add(x + j, c.normal[j]);
      row.Add(L.Slack(k) + o, -1.0);
      row.AppendTo(&qp.A);
      equality_rhs.push_back(c.normal.dot(model.q) - c.phi);
      for (int p = 0; p < nd; ++p) {  // w_β = λ + J_d,p v_{k+1}
        for (int j = 0; j < n; ++j) row.Add(x + n + j, c.rays(p, j));
        row.Add(gamma + 1 + nd, 1.0);
        row.Add(L.Slack(k) + o + 1 + p, -1.0);
        row.AppendTo(&qp.A);
        equality_rhs.push_back(0.0);
      }
      row.Add(gamma, c.friction);  // w_λ = μ c − Σ β
      for (int p = 0; p < nd; ++p) row.Add(gamma + 1 + p, -1.0);
      row.Add(L.Slack(k) + o + 1 + nd, -1.0);
      row.AppendTo(&qp.A);
      equality_rhs.push_back(0.0);
    }
  }
  qp.b = Eigen::Map<VectorXd>(equality_rhs.data(), static_cast<Eigen::Index>(equality_rhs.size()));

  // Inequality rows G X >= h.
  qp.G.Reset(nvar);
  std::vector<double> rhs;
  const auto finish = [&](double bound) {
    row.AppendTo(&qp.G);
    rhs.push_back(bound);
  };
  for (int k = 0; k < N; ++k) {
    for (int j = 0; j < nx; ++j) {  // x_{k+1} ∈ X_k+1
      row.Add(L.State(k) + j, 1.0);
      finish(out->state_lower[k][j]);
      row.Add(L.State(k) + j, -1.0);
      finish(-out->state_upper[k][j]);
    }
    for (int a = 0; a < na; ++a) {  // τ_min <= τ_k <= τ_max
      row.Add(L.Force(k) + a, 1.0);
      finish(s.force_lower[a]);
      row.Add(L.Force(k) + a, -1.0);
      finish(-s.force_upper[a]);
    }
    for (int g = 0; g < ng; ++g) {
      row.Add(L.Impulse(k) + g, 1.0);  // γ >= 0
      finish(0.0);
      row.Add(L.Impulse(k) + g, -1.0);  // M_γ z − γ >= 0
      row.Add(L.Binary(k) + g, out->impulse_cap[k][g]);
      finish(0.0);
      row.Add(L.Slack(k) + g, 1.0);  // w >= 0
      finish(0.0);
      row.Add(L.Slack(k) + g, -1.0);  // M_w (1 − z) − w >= 0
      row.Add(L.Binary(k) + g, -out->complementarity_cap[k][g]);
      finish(-out->complementarity_cap[k][g]);
    }
  }
  qp.h = Eigen::Map<VectorXd>(rhs.data(), static_cast<Eigen::Index>(rhs.size()));

  MiqpProblem& problem = out->problem;
  problem.binaries.clear();
  for (int k = 0; k < N; ++k) {
    for (int g = 0; g < ng; ++g) problem.binaries.push_back(L.Binary(k) + g);
  }
  problem.fixed = std::move(fixed);
  problem.objective_offset = out->constant;
}

double MpcCost(const MpcLinearModel& model, const MpcSettings& s,
               const std::vector<VectorXd>& states, const std::vector<VectorXd>& forces) {
  const VectorXd x0 = (VectorXd(model.nx()) << model.q, model.v).finished();
  const auto quadratic = [&](const VectorXd& x, const VectorXd& w) {
    return (x - s.target).dot(w.cwiseProduct(x - s.target));
  };
  double cost = quadratic(x0, s.state_weight);
  const int N = static_cast<int>(states.size());
  for (int k = 0; k < N; ++k) {
    cost += quadratic(states[k], k + 1 == N ? s.terminal_weight : s.state_weight);
    cost += forces[k].dot(s.force_weight.cwiseProduct(forces[k]));
  }
  return cost;
}

}  // namespace quasidyn
