#include "quasidyn/io/qsim_scene.h"

#include "quasidyn/io/scene_builder.h"

namespace quasidyn {

SceneFormulation QsimFormulation(const QsimScene& qsim) {
  SceneFormulation formulation;
  formulation.name = "qp";
  formulation.source = qsim.mass_scale_where;
  const auto set = [&](const char* key, const std::optional<double>& value) {
    if (value) formulation.parameters.Set(key, *value, qsim.mass_scale_where);
  };
  set("object_mass_scale", qsim.object_mass_scale);
  set("unactuated_mass_scale", qsim.unactuated_mass_scale);
  return formulation;
}

Scene BuildQsimScene(const QsimScene& qsim, const StartOverrides& starts) {
  SceneBuilder builder(qsim.file);
  Scene& parameters = builder.parameters();
  parameters.name = qsim.name;
  parameters.planar = false;
  parameters.gravity = qsim.gravity;
  parameters.time_step = qsim.time_step;
  parameters.contact_tolerance = qsim.contact_tolerance;
  parameters.friction_rays = qsim.friction_rays;
  parameters.conventions = qsim.conventions;
  parameters.formulation = QsimFormulation(qsim);
  for (const QsimModel& model : qsim.models) {
    InstanceSpec instance = model.spec;
    instance.actuated = model.role == QsimModel::Role::kRobot;
    instance.where = model.where;
    instance.initial = model.initial;
    instance.initial_where = model.where;
    if (instance.actuated) {
      instance.stiffness = model.stiffness;
      instance.stiffness_where = model.stiffness_where;
    }
    builder.AddInstance(instance);
  }
  builder.SetStarts(starts);
  Scene scene = builder.Build();
  scene.warnings.insert(scene.warnings.end(), qsim.warnings.begin(), qsim.warnings.end());
  return scene;
}

}  // namespace quasidyn
