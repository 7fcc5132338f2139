#include "quasidyn/simulation/formulation_comparison.h"

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <sstream>
#include <stdexcept>

#include "quasidyn/common/argument_check.h"
#include "quasidyn/contact/contact_model.h"
#include "quasidyn/formulations/registry.h"
#include "quasidyn/simulation/rollout.h"

namespace quasidyn {
namespace {

constexpr const char* kWhere = "CompareFormulations";

// An object's origin and orientation in q (planar objects turn about z).
struct ObjectPose {
  Eigen::Vector3d position = Eigen::Vector3d::Zero();
  Eigen::Quaterniond orientation = Eigen::Quaterniond::Identity();
};

std::vector<ObjectPose> ObjectPoses(const Scene& scene, const Eigen::VectorXd& q) {
  std::vector<ObjectPose> poses;
  for (const ModelInstance& object : scene.instances) {
    if (object.actuated || object.nq == 0) continue;
    ObjectPose pose;
    const int s = object.q_start;
    if (object.nq == 3) {  // planar: (x, y, θ) in the object's plane
      pose.position = Eigen::Vector3d(q[s], q[s + 1], 0.0);
      pose.orientation = Eigen::AngleAxisd(q[s + 2], Eigen::Vector3d::UnitZ());
    } else if (object.nq == 7) {  // floating: (p, quaternion w x y z)
      pose.position = q.segment<3>(s);
      pose.orientation = Eigen::Quaterniond(q[s + 3], q[s + 4], q[s + 5], q[s + 6]).normalized();
    } else {
      continue;
    }
    poses.push_back(pose);
  }
  return poses;
}

double Median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  const size_t middle = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + middle, values.end());
  if (values.size() % 2 == 1) return values[middle];
  const double upper = values[middle];
  return 0.5 * (upper + *std::max_element(values.begin(), values.begin() + middle));
}

void Measure(const Scene& scene, const ScenePtr& scene_ptr, const Trajectory& reference,
             ComparisonRow* row) {
  const Trajectory& t = row->trajectory;
  std::vector<double> times;
  double contacts = 0.0, lowest = 0.0;
  for (const TrajectoryStep& step : t.steps) {
    times.push_back(step.step_time_seconds);
    row->max_contacts = std::max(row->max_contacts, static_cast<int>(step.contacts.size()));
    contacts += static_cast<double>(step.contacts.size());
    for (const ContactRecord& c : step.contacts) lowest = std::min(lowest, c.phi_start);
  }
  row->median_step_seconds = Median(times);
  row->mean_contacts = t.steps.empty() ? 0.0 : contacts / static_cast<double>(t.steps.size());
  // The end state's contacts (the steps record those at each step's start).
  const ContactModel contact(scene_ptr, scene.contact_tolerance);
  ContactData data = contact.CreateData();
  if (contact.Compute(t.FinalConfiguration(), &data))
    for (const Contact& c : data.contacts()) lowest = std::min(lowest, c.phi);
  row->deepest_penetration = lowest < 0.0 ? -lowest : 0.0;
  const std::vector<ObjectPose> start = ObjectPoses(scene, t.q0);
  const std::vector<ObjectPose> end = ObjectPoses(scene, t.FinalConfiguration());
  const std::vector<ObjectPose> goal = ObjectPoses(scene, reference.FinalConfiguration());
  for (size_t o = 0; o < end.size(); ++o) {
    row->object_displacement =
        std::max(row->object_displacement, (end[o].position - start[o].position).norm());
    row->final_position_difference =
        std::max(row->final_position_difference, (end[o].position - goal[o].position).norm());
    row->final_rotation_difference = std::max(
        row->final_rotation_difference, end[o].orientation.angularDistance(goal[o].orientation));
  }
  if (!t.completed())
    row->failure = std::string(ToString(t.status)) + " at step " +
                   std::to_string(t.steps.size() + 1) + ": " + t.message;
}

// The scene's own formulation when its state has velocities, else the first registered one with a
// velocity state and position commands that steps the scene; the scene's own when none does.
std::string ReferenceFormulation(const ScenePtr& scene) {
  const FormulationRegistry& registry = FormulationRegistry::Global();
  const FormulationPlugin& own = registry.Get(scene->formulation.name);
  if (own.info.capabilities.state == StateKind::kConfigurationAndVelocity) return own.info.name;
  for (const FormulationPlugin* plugin : registry.Plugins()) {
    const FormulationCapabilities& can = plugin->info.capabilities;
    if (can.state == StateKind::kConfigurationAndVelocity &&
        can.command == CommandKind::kRobotPositions && WhyCannotStep(scene, *plugin).empty())
      return plugin->info.name;
  }
  return own.info.name;
}

std::string Format(double value, const char* format) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), format, value);
  return buffer;
}

}  // namespace

Comparison CompareFormulations(const ScenePtr& scene_ptr, const ComparisonOptions& options) {
  QUASIDYN_CHECK_ARGUMENT(scene_ptr != nullptr, kWhere, "the scene is null");
  QUASIDYN_CHECK_ARGUMENT(options.steps >= 0, kWhere,
                          "steps must be >= 0 (got " + std::to_string(options.steps) + ")");
  QUASIDYN_CHECK_ARGUMENT(options.reference_refinement >= 1, kWhere,
                          "reference_refinement must be >= 1 (got " +
                              std::to_string(options.reference_refinement) + ")");
  const Scene& scene = *scene_ptr;
  const FormulationRegistry& registry = FormulationRegistry::Global();
  std::vector<const FormulationPlugin*> plugins;
  if (options.formulations.empty()) {
    plugins = registry.Plugins();
  } else {
    for (const std::string& name : options.formulations) plugins.push_back(&registry.Get(name));
  }
  Comparison out;
  out.scene_name = scene.name;
  out.time_step = scene.time_step;
  out.steps = options.steps > 0 ? options.steps : 0;
  if (out.steps == 0) {
    QUASIDYN_CHECK_ARGUMENT(
        scene.ScheduleEnd() > 0, kWhere,
        "scene '" + scene.name + "' has no command schedule to run to its end: give steps");
    out.steps = StepCountForDuration(scene.ScheduleEnd(), scene.time_step);
  }

  // The reference: a second-order formulation (above) at h / R over the same time.
  const int refinement = options.reference_refinement;
  FormulationChoice fine(options.reference_formulation.empty() ? ReferenceFormulation(scene_ptr)
                                                               : options.reference_formulation);
  registry.Get(fine.name);  // an unknown name is an error
  fine.time_step = scene.time_step / refinement;
  if (options.progress)
    options.progress("reference: " + fine.name + " at h/" + std::to_string(refinement));
  RolloutOptions reference_options;
  reference_options.steps = out.steps * refinement;
  reference_options.cancel = options.cancel;
  out.planned = static_cast<int>(plugins.size());
  out.reference = Rollout(*MakeStepModel(scene_ptr, fine), reference_options);
  if (Cancelled(options.cancel)) {  // the reference may be cut short: no row to measure
    out.interrupted = true;
    return out;
  }
  QUASIDYN_CHECK_ARGUMENT(out.reference.completed(), kWhere,
                          "the reference (" + fine.name + " at h = " + NumberText(*fine.time_step) +
                              " s) failed at step " +
                              std::to_string(out.reference.steps.size() + 1) + ": " +
                              out.reference.message);

  for (const FormulationPlugin* plugin : plugins) {
    if (Cancelled(options.cancel)) {
      out.interrupted = true;
      break;
    }
    ComparisonRow row;
    row.formulation = plugin->info.name;
    std::shared_ptr<const StepModel> model;
    row.skipped = WhyCannotStepCapabilities(scene, *plugin);
    if (row.skipped.empty()) {
      try {
        model = MakeStepModel(scene_ptr, FormulationChoice(plugin->info.name));
      } catch (const std::exception& e) {
        row.skipped = e.what();
      }
    }
    if (row.ran()) {
      if (options.progress) options.progress(row.formulation);
      RolloutOptions rollout;
      rollout.steps = out.steps;
      rollout.cancel = options.cancel;
      row.trajectory = Rollout(*model, rollout);
      if (Cancelled(options.cancel)) {  // cut short: dropped
        out.interrupted = true;
        break;
      }
      Measure(scene, scene_ptr, out.reference, &row);
    }
    out.rows.push_back(std::move(row));
  }
  return out;
}

std::string ComparisonText(const Comparison& c) {
  std::ostringstream out;
  out << "scene " << c.scene_name << ": " << c.steps << " steps of h = " << c.time_step
      << " s; reference " << c.reference.formulation << " at h = " << c.reference.time_step
      << " s\n";
  size_t width = 11;
  for (const ComparisonRow& r : c.rows) width = std::max(width, r.formulation.size() + 2);
  const auto pad = [](const std::string& text, size_t n) {
    return text + std::string(n > text.size() ? n - text.size() : 1, ' ');
  };
  out << pad("formulation", width) << pad("steps", 11) << pad("step [ms]", 11)
      << pad("contacts", 12) << pad("penetr. [mm]", 14) << pad("moved [m]", 11)
      << pad("vs ref [m]", 12) << pad("vs ref [rad]", 14) << "status\n";
  for (const ComparisonRow& r : c.rows) {
    out << pad(r.formulation, width);
    if (!r.ran()) {
      out << "cannot step the scene: " << r.skipped << "\n";
      continue;
    }
    out << pad(std::to_string(r.trajectory.steps.size()) + "/" + std::to_string(c.steps), 11)
        << pad(Format(1e3 * r.median_step_seconds, "%.4g"), 11)
        << pad(std::to_string(r.max_contacts) + " (" + Format(r.mean_contacts, "%.3g") + ")", 12)
        << pad(Format(1e3 * r.deepest_penetration, "%.3g"), 14)
        << pad(Format(r.object_displacement, "%.4g"), 11)
        << pad(Format(r.final_position_difference, "%.3g"), 12)
        << pad(Format(r.final_rotation_difference, "%.3g"), 14)
        << (r.failure.empty() ? "completed" : "stopped: " + r.failure) << "\n";
  }
  return out.str();
}

std::string ComparisonCsv(const Comparison& c) {
  std::ostringstream out;
  const auto quoted = [](std::string text) {
    std::string q = "\"";
    for (char ch : text) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return q + "\"";
  };
  out << "formulation,ran,steps_done,steps,median_step_seconds,max_contacts,mean_contacts,"
         "deepest_penetration_m,object_displacement_m,final_position_difference_m,"
         "final_rotation_difference_rad,status,reason\n";
  for (const ComparisonRow& r : c.rows) {
    out << r.formulation << "," << (r.ran() ? 1 : 0) << ",";
    if (r.ran()) {
      out << r.trajectory.steps.size() << "," << c.steps << ","
          << Format(r.median_step_seconds, "%.9g") << "," << r.max_contacts << ","
          << Format(r.mean_contacts, "%.9g") << "," << Format(r.deepest_penetration, "%.9g") << ","
          << Format(r.object_displacement, "%.9g") << ","
          << Format(r.final_position_difference, "%.9g") << ","
          << Format(r.final_rotation_difference, "%.9g") << ","
          << (r.failure.empty() ? "completed" : "stopped") << "," << quoted(r.failure) << "\n";
    } else {
      out << ",,,,,,,,,skipped," << quoted(r.skipped) << "\n";
    }
  }
  return out.str();
}

}  // namespace quasidyn
