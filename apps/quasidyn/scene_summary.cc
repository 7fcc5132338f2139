#include "scene_summary.h"

#include <cmath>
#include <iomanip>
#include <sstream>

#include "quasidyn/model/welded_bodies.h"

namespace quasidyn::cli {
namespace {

std::vector<double> ToVector(const Eigen::VectorXd& x) { return {x.data(), x.data() + x.size()}; }
std::vector<double> ToVector(const Eigen::Vector3d& x) { return {x[0], x[1], x[2]}; }

const char* CombinationName(FrictionCombination rule) {
  switch (rule) {
    case FrictionCombination::kMin:
      return "min";
    case FrictionCombination::kGeometricMean:
      return "geometric";
    case FrictionCombination::kHarmonic:
      return "harmonic";
  }
  return "unknown";
}

// "a, b, c" with 4 significant digits, entries below 1e-12 (round-off of a unit vector) as 0,
// and no -0 or padding: "-1, 0, 0".
std::string TidyVector(const Eigen::Vector3d& x) {
  std::ostringstream s;
  s << std::setprecision(4);
  for (int i = 0; i < 3; ++i) s << (i > 0 ? ", " : "") << (std::abs(x[i]) < 1e-12 ? 0.0 : x[i]);
  return s.str();
}

}  // namespace

nlohmann::json SceneSummaryJson(const Scene& scene, const ContactSet& contacts) {
  using nlohmann::json;
  json out;
  out["name"] = scene.name;
  out["dimension"] = scene.planar ? 2 : 3;
  out["gravity"] = ToVector(scene.gravity);
  out["time_step"] = scene.time_step;
  out["contact_tolerance"] = scene.contact_tolerance;
  out["friction_rays"] = scene.planar ? 2 : scene.friction_rays;
  out["friction_combination"] = CombinationName(scene.friction_combination);
  nlohmann::json parameters = nlohmann::json::object();
  for (const ParameterValue& p : scene.formulation.parameters.values()) {
    if (p.value.size() == 1) {
      parameters[p.key] = p.value(0, 0);
      continue;
    }
    nlohmann::json rows = nlohmann::json::array();
    for (Eigen::Index i = 0; i < p.value.rows(); ++i) {
      nlohmann::json row = nlohmann::json::array();
      for (Eigen::Index j = 0; j < p.value.cols(); ++j) row.push_back(p.value(i, j));
      rows.push_back(p.value.cols() == 1 ? row[0] : row);
    }
    parameters[p.key] = rows;
  }
  out["formulation"] = {{"type", scene.formulation.name}, {"parameters", parameters}};
  out["nq"] = scene.nq;
  out["nv"] = scene.nv;
  out["nq_u"] = scene.nq_u;
  out["nv_u"] = scene.nv_u;
  out["nq_a"] = scene.nq_a;
  out["nv_a"] = scene.nv_a;
  out["q0"] = ToVector(scene.q0);
  for (const ModelInstance& m : scene.instances)
    out["instances"].push_back({{"name", m.name},
                                {"actuated", m.actuated},
                                {"q_start", m.q_start},
                                {"nq", m.nq},
                                {"v_start", m.v_start},
                                {"nv", m.nv}});
  for (const Body& b : scene.bodies)
    out["bodies"].push_back(
        {{"name", b.name},
         {"mass", b.mass},
         {"instance", b.instance < 0 ? std::string("world") : scene.instances[b.instance].name}});
  for (const Joint& j : scene.joints) {
    json joint = {{"name", j.name},
                  {"type", JointTypeName(j.type)},
                  {"parent", scene.bodies[j.parent_body].name},
                  {"child", scene.bodies[j.child_body].name},
                  {"q_start", j.q_start},
                  {"v_start", j.v_start},
                  {"stiffness", j.stiffness},
                  // The second-order models' damping when the file gives it (null: the
                  // default, critical damping of the joint at q0).
                  {"damping", j.damping ? json(*j.damping) : json(nullptr)}};
    if (std::isfinite(j.lower_limit)) joint["lower_limit"] = j.lower_limit;
    if (std::isfinite(j.upper_limit)) joint["upper_limit"] = j.upper_limit;
    out["joints"].push_back(joint);
  }
  if (scene.v0.size() == scene.nv) out["v0"] = ToVector(scene.v0);  // initial_velocity given
  for (const CollisionGeometry& g : scene.geometries)
    out["shapes"].push_back({{"name", g.name},
                             {"body", scene.bodies[g.body].name},
                             {"type", ShapeTypeName(g.shape.type)},
                             {"friction", g.friction}});
  out["visuals"] = scene.visuals.size();
  out["warnings"] = scene.warnings;
  // Body pairs welded together (Scene::WeldRoot) whose shapes are never queried.
  out["welded_pairs_filtered"] = WeldedPairCount(scene);
  out["contacts"] = json::array();
  for (const Contact& c : contacts)
    out["contacts"].push_back({{"shape_a", scene.geometries[c.geometry_a].name},
                               {"shape_b", scene.geometries[c.geometry_b].name},
                               {"body_a", scene.bodies[c.body_a].name},
                               {"body_b", scene.bodies[c.body_b].name},
                               {"phi", c.phi},
                               {"point_a", ToVector(c.p_A)},
                               {"point_b", ToVector(c.p_B)},
                               {"normal", ToVector(c.normal)},
                               {"friction", c.friction}});
  return out;
}

std::string SceneSummaryText(const Scene& scene, const ContactSet& contacts) {
  std::ostringstream s;
  s << "scene " << scene.name << " (" << (scene.planar ? "planar, x-y plane" : "3D") << ")\n"
    << "  h = " << scene.time_step << " s, contact tolerance = " << scene.contact_tolerance
    << " m, friction rays n_d = " << (scene.planar ? 2 : scene.friction_rays) << ", formulation "
    << scene.formulation.name << "\n"
    << "  nq = " << scene.nq << ", nv = " << scene.nv << "  (un-actuated nq_u = " << scene.nq_u
    << ", nv_u = " << scene.nv_u << "; actuated nq_a = nv_a = " << scene.nv_a << ")\n";
  s << "instances (q = [q_u; q_a]):\n";
  for (const ModelInstance& m : scene.instances)
    s << "  " << std::left << std::setw(16) << m.name << (m.actuated ? " robot " : " object")
      << "  q[" << m.q_start << ".." << m.q_start + m.nq << ")  v[" << m.v_start << ".."
      << m.v_start + m.nv << ")  " << m.bodies.size() << " bodies\n";
  s << "joints:\n";
  for (const Joint& j : scene.joints) {
    s << "  " << std::left << std::setw(16) << j.name << " " << std::setw(9)
      << JointTypeName(j.type) << " " << scene.bodies[j.parent_body].name << " -> "
      << scene.bodies[j.child_body].name;
    if (j.stiffness > 0) s << "  K = " << j.stiffness;
    if (std::isfinite(j.lower_limit) || std::isfinite(j.upper_limit))
      s << "  limits [" << j.lower_limit << ", " << j.upper_limit << "]";
    if (j.damping) s << "  D = " << *j.damping;
    s << "\n";
  }
  s << "shapes:\n";
  for (const CollisionGeometry& g : scene.geometries)
    s << "  " << std::left << std::setw(16) << g.name << " " << std::setw(10)
      << ShapeTypeName(g.shape.type) << " on " << scene.bodies[g.body].name
      << "  mu = " << g.friction << "\n";
  if (!scene.visuals.empty()) s << "visuals (viewer only): " << scene.visuals.size() << "\n";
  if (!scene.warnings.empty()) {
    s << "ignored by the loader:\n";
    for (const std::string& warning : scene.warnings) s << "  " << warning << "\n";
  }
  if (const int welded = WeldedPairCount(scene); welded > 0)
    s << "welded pairs filtered (bodies fixed to the world or to each other, never in contact): "
      << welded << "\n";
  s << "contacts at q0 (phi <= " << scene.contact_tolerance << " m): " << contacts.size() << "\n";
  for (const Contact& c : contacts)
    s << "  " << scene.geometries[c.geometry_a].name << " / " << scene.geometries[c.geometry_b].name
      << "  phi = " << std::setprecision(6) << c.phi << " m  normal = (" << TidyVector(c.normal)
      << ")  mu = " << c.friction << "\n";
  return s.str();
}

}  // namespace quasidyn::cli
