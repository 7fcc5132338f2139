// quasidyn.contacts (the contact set at q, with its Jacobians), quasidyn.ContactGeometry,
// quasidyn.forward_kinematics, quasidyn.mass_matrix and quasidyn.integrate;
// inverse_kinematics_bindings.cc adds quasidyn.inverse_kinematics.

#include <pybind11/eigen.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "bindings.h"
#include "quasidyn/contact/contact_model.h"
#include "quasidyn/kinematics/kinematics.h"
#include "real_array.h"

namespace py = pybind11;

namespace quasidyn::python {
namespace {

// One entry of the contact set with the scene's names for its shapes and bodies, and its
// Jacobians on all n_v velocity columns.
struct NamedGeometry {
  Contact contact;
  std::string shape_a, shape_b, body_a, body_b;
  Eigen::Matrix3Xd rays;  // 3 × n_d
  Eigen::VectorXd J_n;    // n_v
  Eigen::MatrixXd J_t;    // n_t × n_v
  Eigen::MatrixXd J_d;    // n_d × n_v
};

constexpr auto kView = py::return_value_policy::reference_internal;

template <typename Member>
auto View(Member member) {
  return [member](const NamedGeometry& g) -> const auto& { return g.contact.*member; };
}

template <typename Member>
auto ViewOwn(Member member) {
  return [member](const NamedGeometry& g) -> const auto& { return g.*member; };
}

}  // namespace

void BindGeometry(py::module_& m) {
  py::class_<NamedGeometry>(
      m, "ContactGeometry",
      "One contact candidate at a configuration (φ <= ε), with what the formulations use "
      "(Pang & Tedrake 2021, §III-B). A is shape_a's body, B shape_b's; J = J_A(p_A) − "
      "J_B(p_B) maps v to the relative velocity of the contact points.")
      .def_readonly("shape_a", &NamedGeometry::shape_a, "Shape A (scene name).")
      .def_readonly("shape_b", &NamedGeometry::shape_b, "Shape B (scene name).")
      .def_readonly("body_a", &NamedGeometry::body_a, "The body of shape A.")
      .def_readonly("body_b", &NamedGeometry::body_b, "The body of shape B ('world' if fixed).")
      .def_property_readonly(
          "phi", [](const NamedGeometry& g) { return g.contact.phi; },
          "Signed distance φ [m] (< 0: penetration).")
      .def_property_readonly("point_a", View(&Contact::p_A), kView,
                             "Witness point on shape_a, world (3,) [m].")
      .def_property_readonly("point_b", View(&Contact::p_B), kView,
                             "Witness point on shape_b, world (3,) [m].")
      .def_property_readonly("normal", View(&Contact::normal), kView,
                             "Unit normal, world (3,), from shape_b to shape_a.")
      .def_property_readonly("tangent1", View(&Contact::tangent1), kView,
                             "(tangent1, tangent2, normal) is orthonormal (3,).")
      .def_property_readonly("tangent2", View(&Contact::tangent2), kView,
                             "Unused (= z) in planar scenes (3,).")
      .def_property_readonly("rays", ViewOwn(&NamedGeometry::rays), kView,
                             "Friction-pyramid directions d_ij as columns (3, n_d).")
      .def_property_readonly(
          "friction", [](const NamedGeometry& g) { return g.contact.friction; },
          "Coulomb coefficient μ [-].")
      .def_property_readonly("J_n", ViewOwn(&NamedGeometry::J_n), kView,
                             "Normal Jacobian n_iᵀ J_i (n_v,): dφ/dt = J_n v [m/s].")
      .def_property_readonly("J_t", ViewOwn(&NamedGeometry::J_t), kView,
                             "Tangent Jacobian (n_t, n_v); n_t = 2 in 3D, 1 planar.")
      .def_property_readonly("J_d", ViewOwn(&NamedGeometry::J_d), kView,
                             "Ray Jacobian D_iᵀ J_i (n_d, n_v).")
      .def("__repr__", [](const NamedGeometry& g) {
        return "<quasidyn.ContactGeometry " + g.shape_a + " / " + g.shape_b +
               " phi=" + std::to_string(g.contact.phi) + " m>";
      });

  m.def(
      "contacts",
      [](std::shared_ptr<Scene> scene, const RealVector& q) {
        const ContactModel model = Named("contacts", [&] { return ContactModel(scene); });
        ContactData data = model.CreateData();
        if (!Named("contacts", [&] { return model.Compute(q.value, &data); }))
          throw std::runtime_error("contacts: the contact query failed: " + data.failure_message());
        const ContactSet& set = data.contacts();
        std::vector<NamedGeometry> out;
        out.reserve(set.contacts().size());
        for (int i = 0; i < set.size(); ++i) {
          const Contact& c = set[i];
          out.push_back({c, scene->geometries.at(c.geometry_a).name,
                         scene->geometries.at(c.geometry_b).name, scene->bodies.at(c.body_a).name,
                         scene->bodies.at(c.body_b).name, set.Rays(i),
                         set.DenseNormalJacobian(i).transpose(), set.DenseTangentJacobian(i),
                         set.DenseRayJacobian(i)});
        }
        return out;
      },
      py::arg("scene"), py::arg("q"),
      "The contact set at q (n_q,): every shape pair with φ <= the scene's contact tolerance ε "
      "[m], as a list of ContactGeometry. Raises ValueError on a wrong size or NaN in q, "
      "RuntimeError when the narrow phase fails on a pair (the message names it).");

  m.def(
      "forward_kinematics",
      [](std::shared_ptr<Scene> scene, const RealVector& q) {
        return Named("forward_kinematics", [&] {
          Kinematics kinematics(scene);
          kinematics.Update(q.value);
          std::map<std::string, Eigen::Matrix4d> poses;
          for (size_t b = 0; b < scene->bodies.size(); ++b)
            poses[scene->bodies[b].name] = kinematics.BodyPose(static_cast<int>(b)).matrix();
          return poses;
        });
      },
      py::arg("scene"), py::arg("q"),
      "Every body's pose X_WB at q (n_q,) as {body name: 4×4 homogeneous matrix} "
      "(rotation, translation [m]). Raises ValueError on a wrong size or NaN in q.");

  m.def(
      "mass_matrix",
      [](std::shared_ptr<Scene> scene, const RealVector& q) {
        return Named("mass_matrix", [&] {
          Kinematics kinematics(scene);
          kinematics.Update(q.value);
          return kinematics.MassMatrix();
        });
      },
      py::arg("scene"), py::arg("q"),
      "M(q) (n_v, n_v) [kg, kg·m, kg·m²]: kinetic energy = ½ vᵀ M v.");

  m.def(
      "integrate",
      [](std::shared_ptr<Scene> scene, const RealVector& q, const RealVector& v, double dt) {
        if (!scene) throw py::value_error("integrate: scene is None");
        return Named("integrate", [&] { return StepConfiguration(*scene, q.value, v.value, dt); });
      },
      py::arg("scene"), py::arg("q"), py::arg("v"), py::arg("dt"),
      "q ⊕ v·dt (n_q,) as the step moves q: along v (n_v,) [m/s, rad/s] for dt [s]; floating "
      "joints rotate as the scene's conventions['quaternion_update'] says (the exponential map, "
      "or the reference simulator's first-order update) and keep unit quaternions.");
}

}  // namespace quasidyn::python
