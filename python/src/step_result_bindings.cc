// quasidyn.StepResult and quasidyn.Contact (one contact of a step, with its forces; also the
// contacts of a trajectory step).

#include <pybind11/eigen.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>

#include "bindings.h"

namespace py = pybind11;

namespace quasidyn::python {
namespace {

constexpr auto kView = py::return_value_policy::reference_internal;

}  // namespace

void BindStepResult(py::module_& m) {
  py::class_<ContactRecord>(
      m, "Contact",
      "One contact of a step: shape_b (on body_b) pushes shape_a (on body_a) with the impulse "
      "normal_impulse·normal + friction_impulse over the step [N·s], i.e. the force "
      "normal_force·normal + friction_force = impulse / h [N]. The force on shape_b is its "
      "opposite. Under the quasi-dynamic model these forces also reset the objects' momentum "
      "every step (StepResult.momentum_force; docs/formulations.md, 'What the forces are').")
      .def_readonly("shape_a", &ContactRecord::shape_a, "The shape pushed (scene name).")
      .def_readonly("shape_b", &ContactRecord::shape_b, "The shape pushing (scene name).")
      .def_readonly("body_a", &ContactRecord::body_a, "The body of shape_a ('world' if fixed).")
      .def_readonly("body_b", &ContactRecord::body_b, "The body of shape_b ('world' if fixed).")
      .def_property_readonly(
          "point", [](const ContactRecord& c) -> const Eigen::Vector3d& { return c.point; }, kView,
          "Witness point on shape_b at the start of the step, world (3,) [m].")
      .def_property_readonly(
          "normal", [](const ContactRecord& c) -> const Eigen::Vector3d& { return c.normal; },
          kView, "Unit contact normal, world (3,), from shape_b to shape_a.")
      .def_readonly("phi_start", &ContactRecord::phi_start,
                    "Signed distance φ at the start of the step [m] (< 0: penetration).")
      .def_readonly("phi_end", &ContactRecord::phi_end,
                    "First-order prediction φ + h·J_n·v of φ at the end of the step [m].")
      .def_readonly("normal_force", &ContactRecord::normal_force, "c_n >= 0 [N], along normal.")
      .def_property_readonly(
          "friction_force",
          [](const ContactRecord& c) -> const Eigen::Vector3d& { return c.friction_force; }, kView,
          "Tangential friction force on shape_a, world (3,) [N].")
      .def_readonly("normal_impulse", &ContactRecord::normal_impulse,
                    "λ_n = h·normal_force >= 0 [N·s]: the solver's normal impulse over the step.")
      .def_property_readonly(
          "friction_impulse",
          [](const ContactRecord& c) -> const Eigen::Vector3d& { return c.friction_impulse; },
          kView, "h·friction_force, world (3,) [N·s].")
      .def_readonly("torsional_impulse", &ContactRecord::torsional_impulse,
                    "ecp: the torsional friction p_r about normal at point (the equivalent contact "
                    "point), on shape_a [N·m·s]; 0 for the other formulations.")
      .def_readonly("torsional_moment", &ContactRecord::torsional_moment,
                    "ecp: p_r/h, the torsional moment on shape_a over the step [N·m].")
      .def_property_readonly(
          "force",
          [](const ContactRecord& c) -> Eigen::Vector3d {
            return c.normal_force * c.normal + c.friction_force;
          },
          "The total force on shape_a, normal_force·normal + friction_force, world (3,) [N].")
      .def("__repr__", [](const ContactRecord& c) {
        return "<quasidyn.Contact " + c.shape_a + " / " + c.shape_b +
               " phi_start=" + std::to_string(c.phi_start) +
               " m normal_force=" + std::to_string(c.normal_force) + " N>";
      });

  py::class_<PyStepResult>(m, "StepResult", "The outcome of one Stepper.step(q, u).")
      .def_property_readonly(
          "status", [](const PyStepResult& r) { return std::string(ToString(r.result.status)); },
          "solved | solved_inaccurate | max_iterations | infeasible | numerical_failure.")
      .def_property_readonly(
          "ok", [](const PyStepResult& r) { return r.result.ok(); },
          "True when status is solved or solved_inaccurate.")
      .def_property_readonly(
          "message", [](const PyStepResult& r) { return r.result.message; },
          "'' when solved; otherwise what failed and the most violated contact.")
      .def_property_readonly(
          "q_next", [](const PyStepResult& r) -> const Eigen::VectorXd& { return r.result.next.q; },
          kView, "q⁺ (n_q,) [m, rad]; equal to q when the step failed. A read-only view.")
      .def_property_readonly(
          "v", [](const PyStepResult& r) -> const Eigen::VectorXd& { return r.result.velocity; },
          kView,
          "The step's velocity v = (q⁺ ⊖ q)/h (n_v,) [m/s, rad/s]; zero when it failed. For "
          "stewart-trinkle and anitescu it is v⁺, the velocity of the next state (v_next).")
      .def_property_readonly(
          "v_next", [](const PyStepResult& r) -> const Eigen::VectorXd& { return r.result.next.v; },
          kView,
          "stewart-trinkle, anitescu: the state's velocity after the step, v⁺ (n_v,) [m/s, "
          "rad/s] (the input v when the step failed); (0,) for the formulations without a "
          "velocity state. A read-only view.")
      .def_property_readonly(
          "contacts", [](const PyStepResult& r) { return r.contacts; },
          "The contacts at q with their forces (list of Contact); empty when the step failed.")
      .def_property_readonly(
          "iterations", [](const PyStepResult& r) { return r.result.solver.iterations; },
          "Solver iterations (interior-point / Newton steps, Lemke pivots).")
      .def_property_readonly(
          "solve_time", [](const PyStepResult& r) { return r.result.solver.solve_time_seconds; },
          "Wall-clock time of the solve [s].")
      .def_property_readonly(
          "primal_residual", [](const PyStepResult& r) { return r.result.solver.primal_residual; },
          "The solver's ∞-norm primal residual at its answer (constraint units).")
      .def_property_readonly(
          "dual_residual", [](const PyStepResult& r) { return r.result.solver.dual_residual; },
          "The solver's ∞-norm dual residual (cost-gradient units).")
      .def_property_readonly(
          "complementarity_gap",
          [](const PyStepResult& r) { return r.result.solver.complementarity_gap; },
          "sᵀz of the interior-point solvers, Σ|w_i z_i| of the LCP, λ²/2 of the barrier.")
      .def_property_readonly(
          "polished", [](const PyStepResult& r) { return r.result.solver.polished; },
          "qp, socp: True when the active-set polish replaced the interior-point answer (exact "
          "zeros on open contacts; docs/formulations.md, 'Polishing').")
      .def_property_readonly(
          "momentum_force",
          [](const PyStepResult& r) -> const Eigen::VectorXd& { return r.result.momentum_force; },
          kView,
          "What the objects' momentum term ½ s vᵀ M_u v contributes: s·M_u·v_u/h (n_v,u,) "
          "[N, N·m] (rows as v_u: scene.v_u_slice). The contacts' generalized force on the "
          "objects equals this minus gravity, so a pushed object's contact forces exceed "
          "Coulomb friction by it; 0 for object_mass_scale = 0. stewart-trinkle, anitescu: "
          "the objects' inertial force (M (v⁺ − v)/h + C(q, v) v)_u.")
      .def_property_readonly(
          "joint_limit_impulse",
          [](const PyStepResult& r) -> const Eigen::VectorXd& {
            return r.result.joint_limit_impulse;
          },
          kView,
          "The joint limits' generalized impulse over the step (n_v,) [N·s or N·m·s]: the "
          "multipliers of the limit rows (docs/formulations.md, 'Joint limits'), positive where a "
          "lower limit pushes a coordinate up, negative where an upper one pushes it down, 0 on "
          "coordinates without limits. / h it is the force; at a limit that holds a robot it "
          "cancels the impedance's pull K (u − q_lim).")
      .def_property_readonly(
          "max_body_motion", [](const PyStepResult& r) { return r.result.max_body_motion; },
          "A bound on how far the step moved any point of a body's collision shapes [m]: the "
          "largest, over the bodies, of |p+ - p| + theta * r (origin displacement, rotation angle "
          "times bounding radius); 0 for a failed step.")
      .def_property_readonly(
          "large_motion", [](const PyStepResult& r) { return r.result.large_motion; },
          "A warning, not a failure (ok is unchanged): max_body_motion exceeds the distance "
          "within which the step saw contacts (the scene's contact_tolerance, a log barrier's "
          "larger candidate distance), so a contact may have been missed and a body passed into "
          "another. A finer time step or smaller command changes per step avoid it.")
      .def("__repr__", [](const PyStepResult& r) {
        return "<quasidyn.StepResult " + std::string(ToString(r.result.status)) + ", " +
               std::to_string(r.contacts.size()) + " contacts>";
      });
}

}  // namespace quasidyn::python
