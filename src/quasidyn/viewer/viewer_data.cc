#include "quasidyn/viewer/viewer_data.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "quasidyn/kinematics/kinematics.h"

namespace quasidyn {
namespace {

using nlohmann::json;

class Rounder {
 public:
  explicit Rounder(int digits) : digits_(digits) {}
  double operator()(double value) const { return RoundToSignificantDigits(value, digits_); }
  json Vector(const Eigen::Vector3d& v) const {
    return json::array({(*this)(v.x()), (*this)(v.y()), (*this)(v.z())});
  }
  // three.js order: (x, y, z, w).
  json Quaternion(const Eigen::Quaterniond& q) const {
    return json::array({(*this)(q.x()), (*this)(q.y()), (*this)(q.z()), (*this)(q.w())});
  }

 private:
  int digits_;
};

const char* BodyKind(const Scene& scene, int body) {
  if (body == 0) return "world";
  const int instance = scene.bodies[body].instance;
  if (instance >= 0 && scene.instances[instance].actuated) return "robot";
  return "object";
}

// The meshes of the page (`meshes`), each written once however many shapes and visuals use it.
class MeshTable {
 public:
  explicit MeshTable(const Rounder& round) : round_(round) {}
  // The index of `mesh` in the table, adding it on first use.
  int Index(const TriangleMesh* mesh) {
    for (size_t i = 0; i < added_.size(); ++i)
      if (added_[i] == mesh) return static_cast<int>(i);
    json vertices = json::array(), triangles = json::array();
    for (const Eigen::Vector3d& v : mesh->vertices)
      for (int k = 0; k < 3; ++k) vertices.push_back(round_(v[k]));
    for (const Eigen::Vector3i& t : mesh->triangles)
      for (int k = 0; k < 3; ++k) triangles.push_back(t[k]);
    table_.push_back(json{{"vertices", vertices}, {"triangles", triangles}});
    added_.push_back(mesh);
    return static_cast<int>(added_.size()) - 1;
  }
  const json& table() const { return table_; }

 private:
  const Rounder& round_;
  std::vector<const TriangleMesh*> added_;
  json table_ = json::array();
};

// A shape or visual of the page: its primitive, or `mesh` (an index into `meshes`) when it was
// made from a mesh file, placed at X_BS in its body.
json ShapeData(const std::string& name, const Shape& shape, const TriangleMesh* mesh,
               const Eigen::Isometry3d& X_BS, const Rounder& round, MeshTable* meshes) {
  json vertices = json::array();
  for (const Eigen::Vector3d& v : shape.vertices) vertices.push_back(round.Vector(v));
  json out{
      {"name", name},
      {"type", mesh != nullptr && shape.type != ShapeType::kConvex ? std::string("mesh")
                                                                   : ShapeTypeName(shape.type)},
      {"radius", round(shape.radius)},
      {"length", round(shape.length)},
      {"size", round.Vector(shape.size)},
      {"vertices", vertices},
      {"position", round.Vector(X_BS.translation())},
      {"quaternion", round.Quaternion(Eigen::Quaterniond(X_BS.rotation()))}};
  if (mesh != nullptr) out["mesh"] = meshes->Index(mesh);
  return out;
}

// Indices of the steps shown after q0: all when they fit in max_frames − 1, otherwise every
// stride-th step plus the last, with stride = ⌈N / (max_frames − 1)⌉ so that at most
// 1 + ⌈N / stride⌉ <= max_frames frames remain.
std::vector<int> ShownSteps(int step_count, int max_frames) {
  std::vector<int> shown;
  if (step_count == 0) return shown;
  const int slots = max_frames - 1;
  const int stride = step_count <= slots ? 1 : (step_count + slots - 1) / slots;
  for (int k = stride; k <= step_count; k += stride) shown.push_back(k - 1);
  if (shown.back() != step_count - 1) shown.push_back(step_count - 1);
  return shown;
}

void CheckConfiguration(const Scene& scene, const Eigen::VectorXd& q, const std::string& what) {
  if (q.size() != scene.nq)
    throw std::invalid_argument(what + ": expected " + std::to_string(scene.nq) +
                                " numbers (the scene's n_q), got " + std::to_string(q.size()));
  for (Eigen::Index i = 0; i < q.size(); ++i)
    if (!std::isfinite(q[i]))
      throw std::invalid_argument(what + "[" + std::to_string(i) + "] is not finite");
}

json PoseRow(const Kinematics& kinematics, const std::vector<int>& bodies, const Rounder& round) {
  json row = json::array();
  for (int body : bodies) {
    const Eigen::Isometry3d& X_WB = kinematics.BodyPose(body);
    const Eigen::Quaterniond rotation(X_WB.rotation());
    for (const json& part : {round.Vector(X_WB.translation()), round.Quaternion(rotation)})
      for (const json& number : part) row.push_back(number);
  }
  return row;
}

const char* BodyKindByName(const Scene& scene, const std::string& body) {
  const int index = scene.BodyIndex(body);
  return index < 0 ? "object" : BodyKind(scene, index);
}

// The heaviest object body's weight m·|g| [N] (scene.weight of the page).
double HeaviestObjectWeight(const Scene& scene) {
  double weight = 0.0;
  for (int b = 1; b < static_cast<int>(scene.bodies.size()); ++b)
    if (std::string(BodyKind(scene, b)) == "object")
      weight = std::max(weight, scene.bodies[b].mass * scene.gravity.norm());
  return weight;
}

// One convention for every arrow: the force on the object. A contact reports the force on A
// (B pushes A); when B is the object and A is not (a robot or the world pushes it), the
// arrow shows the opposite force, the one on B. Between two objects (or two robots): on A.
json ContactData(const Scene& scene, const ContactRecord& contact, const Rounder& round) {
  const Eigen::Vector3d on_a = contact.normal_force * contact.normal + contact.friction_force;
  const bool on_b = std::string(BodyKindByName(scene, contact.body_a)) != "object" &&
                    std::string(BodyKindByName(scene, contact.body_b)) == "object";
  json out{{"a", contact.shape_a},
           {"b", contact.shape_b},
           {"point", round.Vector(contact.point)},
           {"normal", round.Vector(contact.normal)},
           {"normal_force", round(contact.normal_force)},
           {"friction_force", round.Vector(contact.friction_force)},
           {"phi", round(contact.phi_start)},
           {"on", on_b ? contact.body_b : contact.body_a},
           {"by", on_b ? contact.body_a : contact.body_b},
           {"force", round.Vector(on_b ? Eigen::Vector3d(-on_a) : on_a)}};
  // ecp: the point is the equivalent contact point and the pair also carries a moment about the
  // normal there, τ_r = p_r/h on A (ContactRecord::torsional_moment): `torsion` [N·m] about
  // `normal`, on the object (the sign follows the force's).
  if (contact.torsional_moment != 0.0) {
    out["torsion"] = round(on_b ? -contact.torsional_moment : contact.torsional_moment);
  }
  return out;
}

// The momentum term's force on each object (StepResult::momentum_force, its translational
// rows in the world frame: (x, y) of a planar object, (x, y, z) of a floating one) [N]; empty
// when the step has none. An articulated object's rows are joint coordinates (a hinge's torque):
// not drawn as an arrow.
json MomentumData(const Scene& scene, const TrajectoryStep& step, const Rounder& round) {
  json out = json::array();
  if (step.momentum_force.size() != scene.nv_u) return out;
  for (const ModelInstance& instance : scene.instances) {
    if (instance.actuated || instance.nv < 2) continue;
    Eigen::Vector3d force = Eigen::Vector3d::Zero();
    const Joint& root = scene.joints[instance.joints.front()];
    if (root.type == JointType::kPlanar) {  // (f_x, f_y) along the plane's axes (x_J, y_J)
      force = root.X_PJ.linear().leftCols<2>() * step.momentum_force.segment<2>(instance.v_start);
    } else if (root.type == JointType::kFloating) {
      force = step.momentum_force.segment<3>(instance.v_start);
    } else {
      continue;
    }
    out.push_back(json{{"object", instance.name}, {"force", round.Vector(force)}});
  }
  return out;
}

}  // namespace

double RoundToSignificantDigits(double value, int digits) {
  if (digits < 1 || digits > 17)
    throw std::invalid_argument("significant digits must be in [1, 17], got " +
                                std::to_string(digits));
  if (!std::isfinite(value) || value == 0.0) return value;
  char text[40];
  std::snprintf(text, sizeof(text), "%.*g", digits, value);
  return std::strtod(text, nullptr);
}

namespace {

// The optional markers (ViewerDataOptions::marker_points), checked.
json MarkerData(const ViewerDataOptions& options, const Rounder& round) {
  const int count = static_cast<int>(options.marker_points.size());
  if (!options.marker_parents.empty() && static_cast<int>(options.marker_parents.size()) != count)
    throw std::invalid_argument(
        "viewer marker_parents has " + std::to_string(options.marker_parents.size()) +
        " entries, expected one per marker point (" + std::to_string(count) + ")");
  json points = json::array(), parents = json::array();
  for (int i = 0; i < count; ++i) {
    const Eigen::Vector3d& p = options.marker_points[i];
    if (!p.allFinite())
      throw std::invalid_argument("viewer marker_points[" + std::to_string(i) + "] is not finite");
    points.push_back(round.Vector(p));
    const int parent = options.marker_parents.empty() ? -1 : options.marker_parents[i];
    if (parent < -1 || parent >= count)
      throw std::invalid_argument("viewer marker_parents[" + std::to_string(i) +
                                  "] = " + std::to_string(parent) + " is not -1 or a point index");
    parents.push_back(parent);
  }
  return json{{"label", options.marker_label}, {"points", points}, {"parents", parents}};
}

}  // namespace

nlohmann::json BuildViewerData(const Scene& scene, const Trajectory& trajectory,
                               const ViewerDataOptions& options) {
  if (options.max_frames < 2)
    throw std::invalid_argument("viewer max_frames must be >= 2, got " +
                                std::to_string(options.max_frames));
  if (options.significant_digits < 1 || options.significant_digits > 17)
    throw std::invalid_argument("viewer significant_digits must be in [1, 17], got " +
                                std::to_string(options.significant_digits));
  if (trajectory.nq != scene.nq)
    throw std::invalid_argument(
        "the trajectory has n_q = " + std::to_string(trajectory.nq) + " but scene '" + scene.name +
        "' has n_q = " + std::to_string(scene.nq) + ": not a trajectory of this scene");
  const Rounder round(options.significant_digits);

  // Bodies that carry at least one shape or visual, in scene order (the world first).
  std::vector<int> shown_bodies;
  json bodies = json::array();
  MeshTable meshes(round);
  for (int b = 0; b < static_cast<int>(scene.bodies.size()); ++b) {
    json shapes = json::array(), visuals = json::array();
    for (const CollisionGeometry& g : scene.geometries)
      if (g.body == b)
        shapes.push_back(ShapeData(g.name, g.shape, g.mesh.get(), g.X_BS, round, &meshes));
    for (const VisualGeometry& v : scene.visuals)
      if (v.body == b)
        visuals.push_back(ShapeData(v.name, v.shape, v.mesh.get(), v.X_BV, round, &meshes));
    if (shapes.empty() && visuals.empty()) continue;
    shown_bodies.push_back(b);
    json body{{"name", scene.bodies[b].name}, {"kind", BodyKind(scene, b)}, {"shapes", shapes}};
    if (!visuals.empty()) body["visuals"] = visuals;
    bodies.push_back(body);
  }

  Kinematics kinematics(BorrowScene(scene));
  json t = json::array(), step = json::array(), status = json::array(), iterations = json::array(),
       poses = json::array(), contacts = json::array(), momentum = json::array();
  const auto contacts_of = [&](const TrajectoryStep& record) {
    json list = json::array();
    for (const ContactRecord& contact : record.contacts)
      list.push_back(ContactData(scene, contact, round));
    return list;
  };
  CheckConfiguration(scene, trajectory.q0, "trajectory q0");
  kinematics.Update(trajectory.q0);
  t.push_back(0.0);
  poses.push_back(PoseRow(kinematics, shown_bodies, round));
  // Frame 0, q0: the contacts found there are those of step 1 (found at its start), shown with
  // the forces they carried over it and its status, so the page opens with its contacts.
  if (!trajectory.steps.empty() && trajectory.steps.front().k == 1) {
    const TrajectoryStep& first = trajectory.steps.front();
    step.push_back(1);
    status.push_back(std::string(ToString(first.status)));
    iterations.push_back(first.solver.iterations);
    contacts.push_back(contacts_of(first));
    momentum.push_back(MomentumData(scene, first, round));
  } else {
    step.push_back(0);
    status.push_back("initial");
    iterations.push_back(0);
    contacts.push_back(json::array());
    momentum.push_back(json::array());
  }
  const int step_count = static_cast<int>(trajectory.steps.size());
  for (int k : ShownSteps(step_count, options.max_frames)) {
    const TrajectoryStep& record = trajectory.steps[k];
    CheckConfiguration(scene, record.q, "trajectory steps[" + std::to_string(k) + "].q");
    kinematics.Update(record.q);
    t.push_back(round(record.t));
    step.push_back(record.k > 0 ? record.k : k + 1);
    status.push_back(std::string(ToString(record.status)));
    iterations.push_back(record.solver.iterations);
    poses.push_back(PoseRow(kinematics, shown_bodies, round));
    contacts.push_back(contacts_of(record));
    momentum.push_back(MomentumData(scene, record, round));
  }

  json data{{"format", "quasidyn-viewer-data"},
            {"format_version", 1},
            {"scene",
             {{"name", scene.name},
              {"file", std::filesystem::path(trajectory.scene_file).filename().string()},
              {"planar", scene.planar},
              {"weight", round(HeaviestObjectWeight(scene))}}},
            {"run",
             {{"formulation", trajectory.formulation},
              {"time_step", trajectory.time_step},
              {"steps_requested", trajectory.steps_requested},
              {"steps_done", trajectory.steps_done},
              {"status", std::string(ToString(trajectory.status))},
              {"message", trajectory.message}}},
            {"bodies", bodies},
            {"frames",
             {{"t", t},
              {"step", step},
              {"status", status},
              {"iterations", iterations},
              {"poses", poses},
              {"contacts", contacts},
              {"momentum", momentum}}}};
  if (!meshes.table().empty()) data["meshes"] = meshes.table();
  if (!options.marker_points.empty()) data["markers"] = MarkerData(options, round);
  if (!options.overlays.empty()) {
    json overlays = json::array();
    for (const ViewerOverlay& overlay : options.overlays) {
      if (overlay.trajectory == nullptr || overlay.trajectory->nq != scene.nq)
        throw std::invalid_argument("viewer overlay '" + overlay.label +
                                    "' is not a trajectory of scene '" + scene.name + "'");
      const Trajectory& run = *overlay.trajectory;
      json times = json::array(), rows = json::array();
      CheckConfiguration(scene, run.q0, "overlay " + overlay.label + " q0");
      kinematics.Update(run.q0);
      times.push_back(0.0);
      rows.push_back(PoseRow(kinematics, shown_bodies, round));
      for (int k : ShownSteps(static_cast<int>(run.steps.size()), options.max_frames)) {
        CheckConfiguration(scene, run.steps[k].q, "overlay " + overlay.label + " q");
        kinematics.Update(run.steps[k].q);
        times.push_back(round(run.steps[k].t));
        rows.push_back(PoseRow(kinematics, shown_bodies, round));
      }
      overlays.push_back(
          {{"label", overlay.label}, {"color", overlay.color}, {"t", times}, {"poses", rows}});
    }
    data["overlays"] = overlays;
  }
  if (!options.notes.empty()) data["notes"] = options.notes;
  if (!options.execution.is_null()) data["execution"] = options.execution;
  if (options.target_configuration.size() > 0) {
    CheckConfiguration(scene, options.target_configuration, "viewer target configuration");
    kinematics.Update(options.target_configuration);
    json drawn = json::array();
    for (size_t i = 0; i < shown_bodies.size(); ++i) {
      const std::string kind = BodyKind(scene, shown_bodies[i]);
      if (kind == "object" || (kind == "robot" && !options.target_objects_only))
        drawn.push_back(static_cast<int>(i));
    }
    data["target"] = {{"label", options.target_label},
                      {"poses", PoseRow(kinematics, shown_bodies, round)},
                      {"bodies", drawn}};
  }
  return data;
}

}  // namespace quasidyn
