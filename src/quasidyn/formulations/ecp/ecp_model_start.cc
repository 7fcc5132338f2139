// The starting points of the ECP step's Newton iteration (stepping/ecp_model.h): which pairs
// enter the NCP, the warm start, the start of a pair new in the NCP, and the restarts tried when
// the iteration fails from the warm start.

#include <algorithm>
#include <cmath>
#include <limits>

#include "quasidyn/formulations/ecp/contact_frame.h"
#include "quasidyn/formulations/ecp/ecp_model.h"
#include "quasidyn/formulations/ecp/posed_quadric.h"
#include "quasidyn/geometry/support_3d.h"
#include "quasidyn/math/rotation.h"

namespace quasidyn {

namespace {

using Eigen::Matrix3d;
using Eigen::Vector3d;

}  // namespace

Eigen::Isometry3d EcpModel::ShapePose(const EcpData& data, int shape_index, bool end,
                                      const Eigen::VectorXd& z) const {
  const EcpShape& shape = system_->shapes()[shape_index];
  if (shape.body_slot < 0) return Eigen::Isometry3d::Identity();  // its set is in the world
  const int b = shape.body_slot;
  const EcpBodyState& s = data.function_.bodies()[b];
  Eigen::Isometry3d X_WC = Eigen::Isometry3d::Identity();  // the com frame
  X_WC.linear() = s.R;
  X_WC.translation() = s.c;
  if (end) {
    const double h = time_step();
    X_WC.linear() = RotationMatrixFromRotationVector(h * z.segment<3>(6 * b + 3)) * s.R;
    X_WC.translation() = s.c + h * z.segment<3>(6 * b);
  }
  Eigen::Isometry3d com = Eigen::Isometry3d::Identity();
  com.translation() = -system_->bodies()[b].com;
  return X_WC * com * scene().geometries[shape.geometry].X_BS;
}

void EcpModel::StartPairAt(EcpData* data, int k, const Vector3d& a1, const Vector3d& direction,
                           bool end, Eigen::VectorXd* z) const {
  const EcpSystem& system = *system_;
  const EcpPair& pair = system.pairs()[k];
  const EcpShape& F = system.shapes()[pair.shape_f];
  const EcpShape& G = system.shapes()[pair.shape_g];
  Vector3d a2;
  if (!G.set.bounded()) {  // a half-space: one flat inequality, in the world
    const Quadric& q = G.set.inequalities[0];
    a2 = a1 - q.Value(a1) / q.b.squaredNorm() * q.b;
  } else {
    a2 = SupportPoint3d(scene().geometries[G.geometry].shape,
                        ShapePose(*data, pair.shape_g, end, *z), -direction);
  }
  // The inequalities active at the point (within 1e-6 m of the largest) share the multiplier.
  const auto share = [&](int shape_index, const Vector3d& x, int start, int count) {
    const EcpShape& shape = system.shapes()[shape_index];
    const Eigen::Isometry3d X = shape.body_slot >= 0
                                    ? ShapePose(*data, shape_index, end, *z) *
                                          scene().geometries[shape.geometry].X_BS.inverse()
                                    : Eigen::Isometry3d::Identity();
    // X is the body frame; the set lives in the com frame.
    Vector3d c = Vector3d::Zero();
    Matrix3d R = Matrix3d::Identity();
    if (shape.body_slot >= 0) {
      R = X.linear();
      c = X * system.bodies()[shape.body_slot].com;
    }
    double best = -std::numeric_limits<double>::infinity();
    for (int i = 0; i < count; ++i) {
      best = std::max(best, EvaluatePosedQuadric(shape.set.inequalities[i], c, R, x).value);
    }
    int active = 0;
    for (int i = 0; i < count; ++i) {
      active += EvaluatePosedQuadric(shape.set.inequalities[i], c, R, x).value >= best - 1e-6;
    }
    for (int i = 0; i < count; ++i) {
      (*z)[start + i] =
          EvaluatePosedQuadric(shape.set.inequalities[i], c, R, x).value >= best - 1e-6
              ? 1.0 / active
              : 0.0;
    }
  };
  share(pair.shape_f, a1, pair.lf(), pair.m_f);
  share(pair.shape_g, a2, pair.lg(), pair.m_g);
  z->segment<3>(pair.a1()) = a1;
  z->segment<3>(pair.a2()) = a2;
  const double separation = direction.dot(a2 - a1);
  (*z)[pair.s()] = std::max(separation, 0.0);
  z->segment<3>(pair.pt()).setZero();
  if (!end) (*z)[pair.pn()] = separation <= scene().contact_tolerance ? 1.0 : 0.0;
  // σ > 0: the friction rows e²μ p_n v + p σ then have a non-zero derivative in p (with σ = 0
  // they have none while p_n = 0, and Newton starts on a singular Jacobian) [m/s].
  (*z)[pair.sigma()] = 0.1;
  (void)F;
}

void EcpModel::PrepareStart(EcpData* data) const {
  const EcpSystem& system = *system_;
  const Scene& scene = this->scene();
  const double h = time_step();
  EcpStepFunction& f = data->function_;
  Eigen::VectorXd& z0 = data->z0_;
  // Bodies: the velocities the applied impulses give, and a bound on their points' speeds.
  for (int b = 0; b < static_cast<int>(system.bodies().size()); ++b) {
    const EcpBody& body = system.bodies()[b];
    const EcpBodyState& s = f.bodies()[b];
    const Matrix3d I = s.R * body.inertia * s.R.transpose();
    const Vector3d dw = I.ldlt().solve(s.angular_impulse);
    z0.segment<3>(6 * b) = s.v + s.impulse / body.mass;
    z0.segment<3>(6 * b + 3) = s.w + dw;
    data->speed_[b] = s.v.norm() + h * scene.gravity.norm() + s.impulse.norm() / body.mass +
                      body_radius_[b] * (s.w.norm() + dw.norm());
  }
  for (int b = 0; b < static_cast<int>(system.bodies().size()); ++b) {  // the body frames
    const EcpBodyState& s = f.bodies()[b];
    Eigen::Isometry3d& X = data->X_WB_[system.bodies()[b].body];
    X.linear() = s.R;
    X.translation() = s.c - s.R * system.bodies()[b].com;
  }
  for (int k = 0; k < static_cast<int>(system.pairs().size()); ++k) {
    const EcpPair& pair = system.pairs()[k];
    const EcpShape& F = system.shapes()[pair.shape_f];
    const EcpShape& G = system.shapes()[pair.shape_g];
    Vector3d direction;  // from F towards G
    double gap = BallGap(*data, k, &direction);
    const double reach =
        scene.contact_tolerance +
        2.0 * h *
            (data->speed_[F.body_slot] + (G.body_slot >= 0 ? data->speed_[G.body_slot] : 0.0));
    // The balls may meet: the shapes' exact distance (geometry_model.h) decides, and its
    // witness points start a pair new in the NCP.
    ContactPoint closest;
    bool exact = false;
    if (gap <= reach && geometry_.Distance(F.geometry, G.geometry, data->X_WB_, &closest)) {
      exact = true;
      gap = closest.phi;
      direction = -closest.normal;
    }
    const bool active = gap <= reach;
    f.active()[k] = active;
    data->directions_[k] = direction;
    if (!active) {
      data->warm_[k] = 0;
      data->gap_start_[k] = gap;
      z0.segment(pair.offset, pair.size()).setZero();
      continue;
    }
    if (data->warm_[k]) {
      z0.segment(pair.offset, pair.size()) = data->z_last_.segment(pair.offset, pair.size());
      f.seeds()[k] = SeedDirection(f.frame(k).n);
      continue;
    }
    // A pair new in the NCP: F's witness point of the exact distance (or its support point
    // towards G: the centre of a tied face or edge), G's nearest point, the inequalities
    // active there, no impulse.
    const Vector3d a1 = exact
                            ? Vector3d(closest.p_A)
                            : SupportPoint3d(scene.geometries[F.geometry].shape,
                                             ShapePose(*data, pair.shape_f, false, z0), direction);
    StartPairAt(data, k, a1, direction, false, &z0);
    if (exact && G.set.bounded()) z0.segment<3>(pair.a2()) = closest.p_B;
    data->gap_start_[k] = gap;
    f.seeds()[k] = SeedDirection(-direction);
  }
  f.reference() = z0;
}

double EcpModel::BallGap(const EcpData& data, int k, Vector3d* direction) const {
  const EcpSystem& system = *system_;
  const EcpPair& pair = system.pairs()[k];
  const auto ball = [&](int shape_index, Vector3d* center) {
    const EcpShape& shape = system.shapes()[shape_index];
    if (shape.body_slot < 0) {
      *center = shape.set.bounding_center;
    } else {
      const EcpBodyState& s = data.function_.bodies()[shape.body_slot];
      *center = s.c + s.R * shape.set.bounding_center;
    }
    return shape.set.bounding_radius;
  };
  Vector3d center_f, center_g;
  const double radius_f = ball(pair.shape_f, &center_f);
  const double radius_g = ball(pair.shape_g, &center_g);
  const EcpShape& G = system.shapes()[pair.shape_g];
  if (!G.set.bounded()) {
    const Quadric& q = G.set.inequalities[0];
    *direction = -q.b.normalized();
    return q.Value(center_f) / q.b.norm() - radius_f;
  }
  const Vector3d d = center_g - center_f;
  *direction = d.norm() > 0.0 ? Vector3d(d.normalized()) : Vector3d::UnitZ();
  return d.norm() - radius_f - radius_g;
}

bool EcpModel::Restart(EcpData* data) const {
  // From the failed iterate's velocities: F's points nearest G at its predicted end pose (the
  // support feature of F towards G within a band, e.g. both ends of an edge that lands), each in
  // turn as the ECP of the pair that holds the largest residual, then a cold start of every pair.
  const EcpSystem& system = *system_;
  const MixedNcpResult& failed = data->solver_.result();
  int worst_pair = system.PairOfUnknown(failed.worst_index);
  if (worst_pair < 0) {  // a body's row: the pair of that body with the largest residual
    double largest = -1.0;
    for (int k = 0; k < static_cast<int>(system.pairs().size()); ++k) {
      const EcpPair& p = system.pairs()[k];
      if (!data->function_.active()[k]) continue;
      const double r = failed.phi.segment(p.offset, p.size()).lpNorm<Eigen::Infinity>();
      if (r > largest) {
        largest = r;
        worst_pair = k;
      }
    }
  }
  Eigen::VectorXd& z = data->z_restart_;
  const Eigen::VectorXd velocities = failed.z.head(6 * system.bodies().size());
  for (int attempt = 0; attempt < 2; ++attempt) {
    // attempt 0: the failed iterate's velocities; 1: the warm start's.
    z = data->z0_;
    if (attempt == 0 && velocities.allFinite()) z.head(velocities.size()) = velocities;
    if (worst_pair >= 0) {
      const EcpPair& pair = system.pairs()[worst_pair];
      const EcpShape& F = system.shapes()[pair.shape_f];
      const Shape& shape = scene().geometries[F.geometry].shape;
      const Vector3d direction = data->directions_[worst_pair];
      const double band = std::max(scene().contact_tolerance, 0.1 * body_radius_[F.body_slot]);
      PointList& candidates = data->candidates_;
      SupportFeature3d(shape, ShapePose(*data, pair.shape_f, true, z), direction, band,
                       &candidates);
      candidates.push_back(
          SupportPoint3d(shape, ShapePose(*data, pair.shape_f, true, z), direction));
      const double pn = std::max(z[pair.pn()], 1.0);
      for (std::size_t c = 0; c < candidates.size(); ++c) {
        StartPairAt(data, worst_pair, candidates[c], direction, true, &z);
        z[pair.pn()] = pn;
        ++data->restarts_;
        if (Succeeded(data->solver_.Solve(data->function_, z).status)) return true;
      }
    }
  }
  // A cold start of every pair at the start pose.
  std::fill(data->warm_.begin(), data->warm_.end(), 0);
  PrepareStart(data);
  ++data->restarts_;
  return Succeeded(data->solver_.Solve(data->function_, data->z0_).status);
}

}  // namespace quasidyn
