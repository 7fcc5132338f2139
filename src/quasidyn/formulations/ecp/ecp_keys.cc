#include "quasidyn/formulations/ecp/ecp_keys.h"

#include <algorithm>
#include <string>
#include <vector>

#include "quasidyn/model/physical_ranges.h"

namespace quasidyn {

namespace {

const char* const kComponents[] = {"vx", "vy", "vz", "wx", "wy", "wz"};

AppliedImpulse ReadImpulse(const YamlValue& value, int instance) {
  value.CheckKeys({"t", "when", "tolerance", "p", "from", "to", "f"});
  AppliedImpulse impulse;
  impulse.instance = instance;
  if (value.Has("f")) {  // a force over a window
    for (const char* key : {"t", "when", "tolerance", "p"}) {
      if (value.Has(key))
        value.Get(key).Fail("a force window (from, to, f) takes no `" + std::string(key) + "`");
    }
    impulse.impulse = value.Get("f").AsVector(6);
    impulse.time = value.Get("from").AsDouble(0.0, true);
    const YamlValue to = value.Get("to");
    const double end = to.AsDouble();
    if (!(end > impulse.time)) to.Fail("must be > from");
    impulse.duration = end - impulse.time;
    return impulse;
  }
  for (const char* key : {"from", "to"}) {
    if (value.Has(key))
      value.Get(key).Fail("only a force window (with `f`) has `" + std::string(key) + "`");
  }
  impulse.impulse = value.Get("p").AsVector(6);
  if (value.Has("t") == value.Has("when")) {
    value.Fail("an impulse needs exactly one of `t` (a time) or `when` (a velocity trigger)");
  }
  if (const auto t = value.Find("t")) {
    impulse.time = t->AsDouble(0.0, true);
    if (value.Has("tolerance")) value.Get("tolerance").Fail("only triggered impulses (`when`)");
    return impulse;
  }
  const YamlValue when = value.Get("when");
  const std::vector<std::string> keys = when.Keys();
  if (keys.size() != 1) when.Fail("needs exactly one component: {wz: 0}, say");
  for (int i = 0; i < 6; ++i) {
    if (keys[0] == kComponents[i]) impulse.trigger_component = i;
  }
  if (impulse.trigger_component < 0) {
    when.Get(keys[0]).Fail("unknown velocity component '" + keys[0] + "' (vx, vy, vz, wx, wy, wz)");
  }
  impulse.trigger_value = when.Get(keys[0]).AsDouble();
  if (const auto tolerance = value.Find("tolerance")) {
    impulse.trigger_tolerance = tolerance->AsDouble(kTriggerToleranceRange);
  }
  return impulse;
}

}  // namespace

double EcpSceneKeys::LastEventTime() const {
  double end = 0.0;
  for (const AppliedImpulse& i : impulses)
    if (i.trigger_component < 0) end = std::max(end, i.time + i.duration);
  return end;
}

std::vector<ParameterSpec> EcpParameterSpecs() {
  return {NumberParameter("e_t", kEllipsoidRatioRange, "1",
                          "the friction ellipsoid's semi-axis of the tangential impulse p_t "
                          "(Xie & Chakraborty, eqs. 6, 9)"),
          NumberParameter("e_o", kEllipsoidRatioRange, "1",
                          "the friction ellipsoid's semi-axis of the tangential impulse p_o"),
          NumberParameter("e_r", kEllipsoidRadiusRange, "1",
                          "the friction ellipsoid's semi-axis of the torsional moment p_r (a "
                          "uniform pressure on a disk of radius a gives 2a/3)")};
}

void ReadEcpSceneKeys(const YamlValue& root, Scene* scene) {
  const bool ecp = scene->formulation.name == kEcpName;
  auto keys = std::make_shared<EcpSceneKeys>();
  if (const auto objects = root.Find("objects")) {
    for (const YamlValue& object : objects->Items()) {
      const int instance = scene->InstanceIndex(object.Get("name").AsString());
      const ModelInstance& model = scene->instances.at(instance);
      if (const auto impulses = object.Find("impulses")) {
        if (!ecp) {
          impulses->Fail(
              "applied impulses are a key of the ecp formulation (formulation: {type: "
              "ecp}); other formulations take constant external_force only");
        }
        if (model.nv != 6) impulses->Fail("only an object on a floating joint takes impulses");
        for (const YamlValue& item : impulses->Items()) {
          keys->impulses.push_back(ReadImpulse(item, instance));
        }
      }
      if (!ecp) continue;
      if (model.bodies.size() > 1) {
        object.Get("name").Fail(
            "the ecp formulation steps one rigid body per object; this one has " +
            std::to_string(model.bodies.size()) + " bodies");
      }
      const auto body = object.Find("body");
      for (int g = 0; g < static_cast<int>(scene->geometries.size()); ++g) {
        const CollisionGeometry& geometry = scene->geometries[g];
        if (scene->bodies[geometry.body].instance != instance) continue;
        std::string problem;
        if (geometry.shape.type == ShapeType::kCapsule) {
          problem =
              "capsules are not intersections of C² convex inequalities (their curvature jumps "
              "where the cylinder meets the hemispheres), which the ecp formulation needs; use a "
              "cylinder, a sphere, a box or a convex polytope";
        } else if (geometry.shape.type == ShapeType::kConvex &&
                   geometry.shape.vertices.size() > kMaxEcpPolytopeVertices) {
          problem = "the ecp formulation takes convex polytopes of at most " +
                    std::to_string(kMaxEcpPolytopeVertices) + " vertices";
        }
        if (problem.empty()) continue;
        if (body && body->Has("shapes")) {  // an inline body: its shapes are "<object>/<name|j>"
          const std::vector<YamlValue> shapes = body->Get("shapes").Items();
          for (int j = 0; j < static_cast<int>(shapes.size()); ++j) {
            const std::string name =
                shapes[j].Has("name") ? shapes[j].Get("name").AsString() : std::to_string(j);
            if (geometry.name == model.name + "/" + name) shapes[j].Get("type").Fail(problem);
          }
          body->Get("shapes").Fail(problem + " (shape '" + geometry.name + "')");
        }
        object.Get("urdf").Fail(problem + " (shape '" + geometry.name + "')");
      }
    }
  }
  if (!keys->impulses.empty()) scene->extensions[kEcpName] = std::move(keys);
  if (!ecp) return;
  const YamlValue type = root.Get("formulation").Get("type");
  if (scene->planar) {
    type.Fail(
        "the ecp formulation is 3D (bodies as intersections of convex inequalities, "
        "quaternions): it needs dimension: 3");
  }
  if (const auto robots = root.Find("robots")) {
    for (const YamlValue& robot : robots->Items()) {
      robot.Get("name").Fail(
          "robots are not part of the ecp formulation: it drives objects by applied impulses and "
          "forces (objects[].impulses, external_force), as the paper's examples do; remove the "
          "robot or use another formulation");
    }
  }
}

}  // namespace quasidyn
