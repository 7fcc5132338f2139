"""quasidyn: convex quasi-dynamic time stepping for contact-rich manipulation.

Pang & Tedrake, ICRA 2021; Pang, Suh, Yang & Tedrake, T-RO 2023. SI units throughout:
lengths in m, angles in rad, time in s, masses in kg, forces in N. q = [q_u; q_a]: the
objects' coordinates first, then the robots'. Floating objects use (x, y, z, qw, qx, qy, qz).

    import quasidyn
    scene = quasidyn.load_scene("examples/planar_gripper/scene.yaml")
    stepper = quasidyn.Stepper(scene, formulation="socp")
    result = stepper.step(scene.q0, scene.command_at(scene.time_step))
    traj = quasidyn.rollout(scene, formulation="qp", duration=0.3)    # the scene's schedule
    mine = quasidyn.rollout(scene, scene.q0, U, gradients="a_and_b")  # your commands U (N, nq_a)
    mine.q, mine.A, mine.B                 # (N + 1, nq) from q0, (N, nq, nq), (N, nq, nq_a)
    mine.save("run.npz"); quasidyn.view(mine, "run.html")
    many = quasidyn.rollout_batch(scene, Q0, Us, threads=2)            # Q0 (B, nq), Us (B, N, nq_a)
    many.q, many.completed                                             # (B, N + 1, nq), (B,)

Trajectory arrays: states (times, q, v) have N + 1 rows from q0, steps (u, A, B) N rows
(docs/python.md, "Arrays of a trajectory").

Errors: a bad scene file raises SceneError (a ValueError) with 'file:line: field: problem';
a missing file SceneFileNotFoundError or TrajectoryFileNotFoundError, each also a
FileNotFoundError (errno, filename). Paths may be str or os.PathLike (pathlib.Path). Bad
arguments (wrong sizes, NaN, unknown formulation, out-of-range parameters) raise
ValueError with the C++ library's message. A step whose solver fails does not raise: see
StepResult.status and Trajectory.completed. Reference: docs/python.md.

Formulations: formulations() lists the registered ones with their capabilities and parameters;
formulation= takes any of their names and parameters={key: value} any of their parameters.

Second order: formulation="stewart-trinkle", "anitescu" or "anitescu-cone" steps the state (q, v)
with inertia
(Stepper.step(q, u, v=v) -> StepResult.v_next; rollout(..., v0=...); Trajectory.v).

Gradients: Linearizer(scene).linearize(q, u, gradients, method) gives A = dq+/dq and
B = dq+/du (method 'exact' implicit differentiation or 'log-barrier' smoothing);
BatchLinearizer evaluates many (q, u) pairs on threads as stacked arrays, bitwise identical for
any thread count, and gives randomized-smoothing (bundled first-order and zeroth-order)
estimates. Names are spelled as on the command line: 'log-barrier', 'log-barrier-cone'.
"""

from quasidyn._quasidyn import (  # noqa: F401  (the public API)
    BatchLinearization,
    BatchLinearizer,
    InverseKinematicsResult,
    Linearization,
    Linearizer,
    SmoothedLinearization,
    Contact,
    ContactGeometry,
    Scene,
    SceneError,
    SceneFileNotFoundError,
    StepResult,
    Stepper,
    Trajectory,
    TrajectoryStep,
    __version__,
    compare,
    contacts,
    formulations,
    forward_kinematics,
    integrate,
    inverse_kinematics,
    load_scene,
    load_scene_from_string,
    load_trajectory,
    mass_matrix,
    rollout,
    view,
)
from quasidyn._quasidyn import RolloutBatch, rollout_batch  # noqa: F401  (batched rollouts)
from quasidyn._quasidyn import TrajectoryFileNotFoundError  # noqa: F401
from quasidyn._quasidyn import Plan, plan  # noqa: F401  (planning through contact)
from quasidyn._quasidyn import Stabilizer, TrajectoryOptimizer  # noqa: F401  (control)
from quasidyn._quasidyn import ContactMpc  # noqa: F401  (MPC through contact)
from quasidyn._quasidyn import parked_thread_spin, set_parked_thread_spin  # noqa: F401  (threads)
from quasidyn._quasidyn import SvgPlot, SvgPlots  # noqa: F401  (plots in a notebook)

FORMULATIONS = tuple(f["name"] for f in formulations())
"""Every formulation name accepted by formulation= (Stepper, rollout, Linearizer, ...): the
registered formulations, in registration order (formulations() describes each)."""

VELOCITY_FORMULATIONS = tuple(f["name"] for f in formulations()
                              if f["state"] == "configuration and velocity")
"""Every formulation whose state has a velocity v (Stepper.has_velocity): step, rollout and
Linearizer take v (or v0), Trajectory.v holds it. The second-order steppers and ecp (3D objects
driven by applied impulses, docs/ecp.md)."""

SECOND_ORDER_FORMULATIONS = tuple(f["name"] for f in formulations()
                                  if f["state"] == "configuration and velocity"
                                  and f["command"] == "positions of the robots")
"""The second-order formulations: a velocity state and the robots' commanded positions as the
command (stewart-trinkle, anitescu, anitescu-cone)."""

GRADIENTS = ("a_and_b", "b_only", "none")
"""Every value of the gradients= argument (rollout, linearize, smooth_*)."""

METHODS = ("exact", "log-barrier")
"""Every value of the method= argument of the linearizers (the command line's names)."""

__all__ = [
    "BatchLinearization", "BatchLinearizer", "Linearization", "Linearizer",
    "SmoothedLinearization", "Contact", "ContactGeometry", "FORMULATIONS", "GRADIENTS",
    "SECOND_ORDER_FORMULATIONS", "VELOCITY_FORMULATIONS",
    "InverseKinematicsResult", "METHODS", "Scene", "SceneError", "SceneFileNotFoundError",
    "StepResult", "Stepper",
    "Trajectory", "TrajectoryStep", "compare", "contacts", "formulations", "forward_kinematics",
    "integrate", "inverse_kinematics", "load_scene", "load_scene_from_string", "load_trajectory",
    "mass_matrix", "rollout", "view",
]
__all__ += ["RolloutBatch", "rollout_batch", "TrajectoryFileNotFoundError"]
__all__ += ["Plan", "plan"]
__all__ += ["Stabilizer", "TrajectoryOptimizer", "ContactMpc"]
__all__ += ["parked_thread_spin", "set_parked_thread_spin"]
__all__ += ["SvgPlot", "SvgPlots"]

# Scenes remember how they were made, so that quasidyn.distributed can send a worker the file,
# text and edits to rebuild one (quasidyn/_scene_source.py); the functions are otherwise the
# compiled ones.
from quasidyn import _scene_source  # noqa: E402


def _remembering_load_scene(path, packages={}):  # noqa: B006  (the compiled default)
    return _scene_source.remember_file(_quasidyn_load_scene(path, packages), path, packages)


def _remembering_load_scene_from_string(yaml_text, name_for_errors="<string>",
                                        base_directory="."):
    scene = _quasidyn_load_scene_from_string(yaml_text, name_for_errors, base_directory)
    return _scene_source.remember_string(scene, yaml_text, name_for_errors, base_directory)


def _remembering_edit(method):
    compiled = getattr(Scene, method)

    def edit(self, *args, **kwargs):
        return _scene_source.remember_edit(compiled(self, *args, **kwargs), self, method, args,
                                           kwargs)

    edit.__name__ = edit.__qualname__ = method
    edit.__doc__ = compiled.__doc__
    edit.__wrapped__ = compiled
    return edit


from quasidyn._quasidyn import load_scene as _quasidyn_load_scene  # noqa: E402
from quasidyn._quasidyn import load_scene_from_string as _quasidyn_load_scene_from_string  # noqa
_remembering_load_scene.__doc__ = _quasidyn_load_scene.__doc__
_remembering_load_scene_from_string.__doc__ = _quasidyn_load_scene_from_string.__doc__
load_scene = _remembering_load_scene
load_scene.__name__ = load_scene.__qualname__ = "load_scene"
load_scene_from_string = _remembering_load_scene_from_string
load_scene_from_string.__name__ = load_scene_from_string.__qualname__ = "load_scene_from_string"
for _method in _scene_source.EDIT_METHODS:
    setattr(Scene, _method, _remembering_edit(_method))
del _method

# Show the public package, not the compiled submodule, in reprs and tracebacks.
for _cls in (Contact, ContactGeometry, Scene, SceneError, StepResult, Stepper, Trajectory,
             TrajectoryStep, Linearizer, BatchLinearizer, Linearization, SmoothedLinearization,
             BatchLinearization, InverseKinematicsResult, Plan, RolloutBatch,
             SceneFileNotFoundError, TrajectoryFileNotFoundError):
    _cls.__module__ = __name__
del _cls
