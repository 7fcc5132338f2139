#include "linearize_command.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "formulation_options.h"
#include "log.h"
#include "quasidyn/formulations/registry.h"
#include "quasidyn/linearization/linearization_settings.h"
#include "quasidyn/linearization/linearizer.h"
#include "quasidyn/simulation/coordinate_names.h"
#include "quasidyn/simulation/rollout.h"
#include "scene_file.h"
#include "setting_flags.h"

namespace quasidyn::cli {
namespace {

struct LinearizeOptions {
  std::string scene_path;
  int step = 1;
  FormulationOptions formulation;
  bool json = false;
  // The linearization block's settings given as flags (LinearizationSettingsSchema): --method,
  // --samples, --std, --std-q, --seed, --estimator, --threads, --contact-tolerance.
  SettingOverrides overrides;
};

// The settings that apply only to the randomized method.
const char* const kRandomizedSettings[] = {"samples", "u_std",     "q_std",
                                           "seed",    "estimator", "threads"};

std::string Number(double x) {
  std::ostringstream s;
  s << x;
  return s.str();
}

// What was linearised and how.
struct LinearizeAnswer {
  std::string mode;    // exact | log-barrier | randomized
  std::string method;  // the gradients used: exact | log-barrier
  std::string description;
  std::string note;  // when the formulation's own program is not the differentiated one
  Eigen::VectorXd q, u, q_next;
  Eigen::VectorXd v, v_next;  // the second-order models' velocities; empty otherwise
  Eigen::MatrixXd A, B, A_standard_error, B_standard_error;
  int samples_used = 0, samples_failed = 0;
  std::optional<double> kappa;  // the differentiated program's, when it has one
};

// Step K must be one of the schedule's N steps (a scene without a schedule has no end).
void CheckStepInSchedule(const Scene& scene, double time_step, int step) {
  if (!(scene.ScheduleEnd() > 0)) return;
  const int steps = StepCountForDuration(scene.ScheduleEnd(), time_step);
  if (step > steps)
    throw std::invalid_argument("--step " + std::to_string(step) + " is beyond the schedule's " +
                                std::to_string(steps) + " steps (t = " + Number(steps * time_step) +
                                " s at h = " + Number(time_step) + " s): give --step 1 … " +
                                std::to_string(steps));
}

void ValidateOptions(const LinearizeOptions& options) {
  if (options.step < 1)
    throw std::invalid_argument("--step must be >= 1 (got " + std::to_string(options.step) + ")");
}

[[noreturn]] void Fail(const Scene& scene, const std::string& message) {
  std::cerr << "quasidyn: linearize: " << scene.name << ": " << message << "\n";
  throw CLI::RuntimeError(kStepFailedExitCode);  // main returns its exit code silently
}

// The lineariser's options from the command line's: the linearization block's flags, applied
// and checked by its schema ("linearization.samples: must be >= 1 (got 0)"); the method, when
// not given, the formulation's own smoothing for a smoothed formulation, else exact.
LinearizationOptions LinearizerOptions(const LinearizeOptions& options,
                                       const StepModel& rollout_model) {
  const SettingsSchema<LinearizationOptions>& schema = LinearizationSettingsSchema();
  LinearizationOptions out;
  bool method_given = false;
  for (const SettingOverride& o : options.overrides) method_given |= o.name == "method";
  if (!method_given &&
      rollout_model.capabilities().smoothed_linearization == rollout_model.formulation().name)
    out.method = LinearizationMethod::kLogBarrier;
  ApplySettingOverrides(schema, options.overrides, &out);
  if (out.method != LinearizationMethod::kRandomized) {
    for (const SettingOverride& o : options.overrides)
      for (const char* name : kRandomizedSettings)
        if (o.name == name)
          throw std::invalid_argument(SettingFlag(schema.FindByName(name)->spec) +
                                      " applies only to --method randomized");
  }
  // A κ given on the command line is also the κ of a log-barrier linearisation.
  if (const ParameterValue* kappa = options.formulation.flags.Find("kappa"))
    out.kappa = kappa->value(0, 0);
  // The zeroth-order fit gives A only when q is perturbed.
  if (out.method == LinearizationMethod::kRandomized &&
      out.estimator == RandomizedEstimator::kZerothOrder && !(out.randomized.q_std > 0))
    out.mode = GradientMode::kBOnly;
  ValidateLinearizationOptions(out);
  return out;
}

LinearizeAnswer Linearize(const ScenePtr& scene_ptr, const FormulationChoice& choice,
                          const StepModel& rollout_model, const LinearizationOptions& options,
                          const State& x, const Eigen::VectorXd& u) {
  const Scene& scene = *scene_ptr;
  const std::string mode = LinearizationMethodName(options.method);
  Linearizer linearizer(scene_ptr, choice, options);
  const std::string& differentiated = linearizer.model().formulation().name;
  LinearizeAnswer out;
  out.mode = mode;
  out.method = mode == "log-barrier" ||
                       (mode == "randomized" &&
                        linearizer.model().capabilities().smoothed_linearization == differentiated)
                   ? "log-barrier"
                   : "exact";
  out.q = x.q;
  out.v = x.v;
  out.u = u;
  out.description = linearizer.Description();
  if (const ParameterValue* kappa = linearizer.model().parameters().Find("kappa"))
    out.kappa = kappa->value(0, 0);
  if (differentiated != rollout_model.formulation().name)
    out.note = "the rollout used formulation " + rollout_model.formulation().name +
               "; the gradients are those of the " + differentiated +
               " step at its state (its declared linearisation, formulations/registry.h)";
  const Linearization l = linearizer.Linearize(x, u);
  if (!l.ok()) {
    if (l.step_failed)
      Fail(scene, "linearisation failed: the step failed (" + std::string(ToString(l.status)) +
                      "): " + l.message);
    Fail(scene, (mode == "randomized"
                     ? "randomized smoothing failed: "
                     : "linearisation failed (" + std::string(ToString(l.status)) + "): ") +
                    l.message);
  }
  out.q_next = l.x_next.q;
  out.v_next = l.x_next.v;
  out.A = l.A;
  out.B = l.B;
  out.A_standard_error = l.A_standard_error;
  out.B_standard_error = l.B_standard_error;
  out.samples_used = l.samples_used;
  out.samples_failed = l.samples_failed;
  if (mode == "randomized") {
    const LinearizationOptions& o = linearizer.options();
    out.description =
        std::string(o.estimator == RandomizedEstimator::kZerothOrder
                        ? "zeroth-order least-squares fit of the steps"
                        : "first-order (bundled) mean of the gradients") +
        " of the " + linearizer.ProgramDescription() + ", " + std::to_string(o.randomized.samples) +
        " samples (" + std::to_string(l.samples_used) + " used, " +
        std::to_string(l.samples_failed) + " failed), std u " + Number(o.randomized.u_std) +
        ", std q " + Number(o.randomized.q_std) + ", seed " + std::to_string(o.randomized.seed);
  }
  return out;
}

// Matrix as rows of named entries: a header of column names, then one line per row.
void PrintMatrix(const std::string& title, const Eigen::MatrixXd& m,
                 const std::vector<std::string>& row_names,
                 const std::vector<std::string>& column_names, std::ostream& out) {
  out << title << " (" << m.rows() << " x " << m.cols() << ")\n";
  size_t width = 1;
  for (const std::string& name : row_names) width = std::max(width, name.size());
  out << std::string(width, ' ');
  for (const std::string& name : column_names) out << "  " << name;
  out << "\n";
  char buffer[32];
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    out << row_names[i] << std::string(width - row_names[i].size(), ' ');
    for (Eigen::Index j = 0; j < m.cols(); ++j) {
      std::snprintf(buffer, sizeof(buffer), "  %12.6g", m(i, j));
      out << buffer;
    }
    out << "\n";
  }
}

void PrintVector(const std::string& title, const Eigen::VectorXd& v,
                 const std::vector<std::string>& names, std::ostream& out) {
  out << title << "\n";
  size_t width = 1;
  for (const std::string& name : names) width = std::max(width, name.size());
  char buffer[32];
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    std::snprintf(buffer, sizeof(buffer), "  %.17g", v[i]);
    out << "  " << names[i] << std::string(width - names[i].size(), ' ') << buffer << "\n";
  }
}

nlohmann::ordered_json VectorJson(const Eigen::VectorXd& v) {
  return std::vector<double>(v.data(), v.data() + v.size());
}

// Row-major: an array of n rows, each an array of columns; null when not computed.
nlohmann::ordered_json MatrixJson(const Eigen::MatrixXd& m) {
  if (m.size() == 0) return nullptr;
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (Eigen::Index i = 0; i < m.rows(); ++i) rows.push_back(VectorJson(m.row(i).transpose()));
  return rows;
}

// The names of the command's entries: the actuated coordinates, or the objects' applied
// impulses for a formulation that commands those.
std::vector<std::string> CommandNames(const StepModel& model,
                                      const std::vector<std::string>& names) {
  const Scene& scene = model.scene();
  if (model.capabilities().command == CommandKind::kObjectImpulses) return ImpulseNames(scene);
  return std::vector<std::string>(names.end() - scene.nq_a, names.end());
}

void PrintJson(const StepModel& model, const LinearizeOptions& options,
               const LinearizationOptions& settings, const LinearizeAnswer& o,
               const std::vector<std::string>& names, std::ostream& out) {
  const Scene& scene = model.scene();
  const double h = model.time_step();
  nlohmann::ordered_json j;
  j["format"] = "quasidyn-linearization";
  j["format_version"] = 1;
  j["scene"] = scene.name;
  j["formulation"] = model.formulation().name;
  j["time_step"] = h;
  j["kappa"] = o.kappa ? nlohmann::ordered_json(*o.kappa) : nlohmann::ordered_json(nullptr);
  j["step"] = options.step;
  j["t_start"] = (options.step - 1) * h;
  j["t_end"] = options.step * h;
  j["mode"] = o.mode;
  j["method"] = o.method;
  j["description"] = o.description;
  j["note"] = o.note;
  if (o.mode == "randomized") {
    const RandomizedSmoothingSettings& r = settings.randomized;
    j["randomized"] = {{"estimator", RandomizedEstimatorName(settings.estimator)},
                       {"samples", r.samples},
                       {"samples_used", o.samples_used},
                       {"samples_failed", o.samples_failed},
                       {"std", r.u_std},
                       {"std_q", r.q_std},
                       {"seed", r.seed},
                       {"threads", settings.threads}};
  } else {
    j["randomized"] = nullptr;
  }
  j["status"] = "solved";
  j["nq"] = scene.nq;
  j["nq_a"] = scene.nq_a;
  j["coordinate_names"] = names;
  j["actuated_names"] = std::vector<std::string>(names.end() - scene.nq_a, names.end());
  // The entries of u: the actuated coordinates, or ecp's applied impulses on the objects.
  j["command_names"] = CommandNames(model, names);
  // x = (q, v) for the second-order models: A is (n_q + n_v) square, B (n_q + n_v) x n_q,a.
  const bool velocities = o.v.size() > 0;
  j["nv_state"] = velocities ? scene.nv : 0;
  j["velocity_names"] = velocities ? VelocityNames(scene) : std::vector<std::string>();
  j["q"] = VectorJson(o.q);
  j["v"] = velocities ? VectorJson(o.v) : nullptr;
  j["u"] = VectorJson(o.u);
  j["q_next"] = VectorJson(o.q_next);
  j["v_next"] = velocities ? VectorJson(o.v_next) : nullptr;
  j["A"] = MatrixJson(o.A);
  j["B"] = MatrixJson(o.B);
  j["A_standard_error"] = MatrixJson(o.A_standard_error);
  j["B_standard_error"] = MatrixJson(o.B_standard_error);
  out << j.dump(1) << "\n";
}

void PrintText(const StepModel& model, const LinearizeOptions& options, const LinearizeAnswer& o,
               const std::vector<std::string>& names, std::ostream& out) {
  const Scene& scene = model.scene();
  const double h = model.time_step();
  const std::vector<std::string> actuated = CommandNames(model, names);
  out << "scene        " << scene.name << " (formulation " << model.formulation().name
      << ", h = " << h << " s)\n";
  out << "step         " << options.step << " (t = " << (options.step - 1) * h << " -> "
      << options.step * h << " s)\n";
  out << "mode         " << o.mode << ": " << o.description << "\n";
  if (!o.note.empty()) out << "note         " << o.note << "\n";
  PrintVector("q (start of the step)", o.q, names, out);
  const CommandKind command = model.capabilities().command;
  PrintVector(command == CommandKind::kRobotVelocities ? "u (commanded robot velocities)"
              : command == CommandKind::kObjectImpulses
                  ? "u (impulses applied to the objects over the step [N s, N m s])"
                  : "u (commanded robot positions)",
              o.u, actuated, out);
  PrintVector("q_next", o.q_next, names, out);
  if (o.v.size() > 0) {  // second order: x = (q, v)
    const std::vector<std::string> velocity_names = VelocityNames(scene);
    std::vector<std::string> state_names = names;
    state_names.insert(state_names.end(), velocity_names.begin(), velocity_names.end());
    PrintVector("v (start of the step)", o.v, velocity_names, out);
    PrintVector("v_next", o.v_next, velocity_names, out);
    PrintMatrix("B = dx_next/du, x = (q, v)", o.B, state_names, actuated, out);
    PrintMatrix("A = dx_next/dx", o.A, state_names, state_names, out);
    return;
  }
  PrintMatrix("B = dq_next/du", o.B, names, actuated, out);
  if (o.A.size() > 0) {
    PrintMatrix("A = dq_next/dq", o.A, names, names, out);
  } else {
    out << "A = dq_next/dq: not estimated (the zeroth-order fit needs --std-q > 0)\n";
  }
}

void RunLinearize(const LinearizeOptions& options) {
  const ScenePtr scene_ptr =
      std::make_shared<const Scene>(LoadSceneFile(options.scene_path, "linearize"));
  const Scene& scene = *scene_ptr;
  const FormulationChoice choice = ChoiceFrom(options.formulation);
  const std::shared_ptr<const StepModel> rollout_model = MakeStepModel(scene_ptr, choice);
  ValidateOptions(options);
  const LinearizationOptions settings = LinearizerOptions(options, *rollout_model);
  CheckStepInSchedule(scene, rollout_model->time_step(), options.step);
  const std::vector<std::string> names = CoordinateNames(scene);

  // Steps 1 … K − 1 of the schedule, as `quasidyn simulate` runs them.
  RolloutOptions rollout_options;
  rollout_options.steps = options.step - 1;
  const Trajectory trajectory = Rollout(*rollout_model, rollout_options);
  if (!trajectory.completed())
    Fail(scene, "the rollout failed at step " + std::to_string(trajectory.steps.size() + 1) +
                    " before reaching step " + std::to_string(options.step) + ": " +
                    trajectory.message);
  const State x{trajectory.FinalConfiguration(), trajectory.FinalVelocity()};
  const Eigen::VectorXd u =
      rollout_model->ScheduledCommand(options.step * rollout_model->time_step(), x);

  const LinearizeAnswer answer = Linearize(scene_ptr, choice, *rollout_model, settings, x, u);
  if (options.json) {
    PrintJson(*rollout_model, options, settings, answer, names, std::cout);
  } else {
    PrintText(*rollout_model, options, answer, names, std::cout);
  }
  std::cout << std::flush;
}

}  // namespace

void AddLinearizeCommand(CLI::App& app) {
  auto options = std::make_shared<LinearizeOptions>();
  CLI::App* linearize = app.add_subcommand(
      "linearize",
      "Print q+, A = dq+/dq and B = dq+/du at step K of a scene's command schedule (x = (q, v) "
      "for the second-order formulations)");
  linearize->add_option("SCENE", options->scene_path, "Scene file (YAML)")->required();
  linearize->add_option("--step", options->step,
                        "Step K >= 1 to linearise: q_K = f(q_{K-1}, u_K) (default 1)");
  // The linearization block's flags; --kappa is the formulation's (AddFormulationOptions), also
  // the κ of a log-barrier linearisation.
  AddSettingFlags(linearize, LinearizationSettingsSchema().specs(), &options->overrides, {"kappa"});
  linearize
      ->add_option_function<std::string>(
          "--mode",
          [overrides = &options->overrides](const std::string& method) {
            overrides->push_back({"method", method});
          },
          "The former name of --method")
      ->group("");
  AddFormulationOptions(linearize, &options->formulation, "for the rollout (default: the scene's)",
                        /*time_step=*/false);
  linearize->add_flag("--json", options->json, "Print one JSON object (docs/gradients.md)");
  AddQuietFlag(linearize);
  linearize->callback([options] { RunLinearize(*options); });
}

}  // namespace quasidyn::cli
