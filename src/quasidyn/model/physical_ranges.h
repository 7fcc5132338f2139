#pragma once
// The usable range of every positive physical input of a scene, declared once: the scene
// loader (io/yaml_reader.h, YamlValue::AsDouble(range)), the model files' masses and inertias
// (io/model_file_numbers.h), the formulations' parameters (formulations/parameters.h), the
// settings blocks' positive keys (model/settings_schema.h, SpecEditor::Within), Python's and
// the command line's edits, the messages and the docs' table (docs/scene-format.md, "Limits",
// printed from this file by scripts/physical_ranges_table.py and checked against it by
// model/physical_ranges_test.cc) all read it. A sign alone let a
// positive subnormal time step (1e-320) load and stop the first step with an internal message
// (h² = 0 made a QP bound -inf). The bounds are chosen from physics and numerics (each its
// reason), wide enough that every example, test scene and qsim file loads.

#include <string>
#include <string_view>
#include <vector>

namespace quasidyn {

struct PhysicalRange {
  std::string_view quantity;    // what it is, for the docs' table: "time step"
  std::string_view unit;        // SI, as messages write it: "s", "kg m^2"; "-" for a pure number
  double min = 0.0, max = 0.0;  // the usable values are [min, max]
  bool zero_allowed = false;    // 0 is accepted too (what it means: the reason says)
  std::string_view reason;      // one line: why these bounds
};

// Time step h [s]: the step scales by h, h² and 1/h²; within [1e-6, 10] s they stay within
// 1e12 of each other (1e-320 made h² = 0 and a QP bound -inf). Examples use 0.01 to 0.1 s.
inline constexpr PhysicalRange kTimeStepRange{
    "time step h",
    "s",
    1e-6,
    10.0,
    false,
    "h, h^2 and 1/h^2 scale the step: outside [1e-6, 10] s they part by more than 1e12 "
    "(1e-320 gave h^2 = 0)"};
// A scene's duration [s]: at least the smallest step; 1e7 s (116 days) is 1e6 of the largest.
inline constexpr PhysicalRange kDurationRange{
    "duration", "s",   1e-6,
    1e7,        false, "at least one smallest step; 1e7 s is a million of the largest steps"};
// A body's mass [kg]: a milligram to a thousand tonnes; two bodies' masses then stay within
// 1e12 of each other, the ratio the step's Hessian resolves with double's 16 digits.
inline constexpr PhysicalRange kMassRange{
    "mass",
    "kg",
    1e-6,
    1e6,
    false,
    "a milligram to a thousand tonnes: mass ratios within 1e12, which the step's Hessian resolves"};
// A principal moment of inertia [kg m^2] (a diagonal entry, as written): 1e-18 is below the
// least mass (1e-6 kg) at the least shape size (1e-5 m), 1e9 the largest mass (1e6 kg) at 30 m;
// 0 stays allowed where a model may have it (a quasi-dynamic
// robot link's inertia never enters the step, and qsim models have rotationally singular links,
// iyy = 0); an object's inertia must be positive definite, a robot link's may be singular.
inline constexpr PhysicalRange kInertiaRange{
    "principal moment of inertia",
    "kg m^2",
    1e-18,
    1e9,
    true,
    "least mass at the least shape size to the largest at 30 m; 0 for links whose inertia never "
    "enters the step"};
// A robot joint's stiffness [N/m or N m/rad]: below 1e-3 a 1 N load moves a joint 1 km; above
// 1e9, h²K at h = 0.01 s (1e5) outweighs the least mass (1e-6 kg) by 1e11, near the 1e12 ratio
// the step's Hessian resolves.
inline constexpr PhysicalRange kStiffnessRange{
    "joint stiffness",
    "N/m or N m/rad",
    1e-3,
    1e9,
    false,
    "below 1e-3 a 1 N load moves a joint 1 km; above 1e9 h^2 K outweighs the least mass by "
    "1e11 at h = 0.01 s"};
// A robot joint's damping [N s/m or N m s/rad]: 0 is none; nonzero as the stiffness's range.
inline constexpr PhysicalRange kDampingRange{
    "joint damping",
    "N s/m or N m s/rad",
    1e-6,
    1e9,
    true,
    "0 is none; a nonzero damping as small as 1e-6 or as large as the stiffness's bound"};
// contact_tolerance [m]: 0 finds touching pairs only; nonzero from the smallest sphere radius
// (kMinSphereRadius, 1 nm) up to the scene files' number limit (kMaxSceneNumber, 1e12 m): any
// tolerance beyond the largest shape size (kMaxShapeSize, 1 km) holds every pair, which is how a
// qsim file's `.inf` is written (io/qsim_parameters.cc).
inline constexpr PhysicalRange kContactToleranceRange{
    "contact tolerance",
    "m",
    1e-9,
    1e12,
    true,
    "0: touching pairs only; else from the smallest sphere radius; beyond the largest shape size "
    "(1 km) every pair is in (a qsim file's .inf is 1e12)"};
// Coulomb friction coefficient μ [-]: 0 is frictionless; measured μ lie within [0.001, 10]; a
// cone steeper than atan(100) (89.4°) is a sticking contact already.
inline constexpr PhysicalRange kFrictionRange{
    "friction coefficient",
    "-",
    1e-6,
    100.0,
    true,
    "0 is frictionless; measured coefficients lie in [1e-3, 10]; above 100 the cone is 89.4 deg"};
// The log-barrier weight κ [1/(N·m)]: the barrier −(1/κ) Σ log(·) is worth 1/κ N m; outside
// [1e-6, 1e12] it outweighs every energy of a step by 1e6 or falls below the solvers' 1e-12.
inline constexpr PhysicalRange kKappaRange{
    "log-barrier weight kappa",
    "1/(N·m)",
    1e-6,
    1e12,
    false,
    "1/kappa N m of barrier: outside it the barrier swamps a step's energies or vanishes"};
// A mass scale [-] (object_mass_scale s, unactuated_mass_scale c_u): 0 is the quasistatic model
// (or s = 1 for c_u); nonzero within 1e9 of 1, the range over which s M_u / h² stays resolved.
inline constexpr PhysicalRange kMassScaleRange{
    "mass scale",
    "-",
    1e-9,
    1e9,
    true,
    "0: the quasistatic model (c_u: s = 1); else within 1e9 of 1 so s M / h^2 stays resolved"};
// ECP's friction ellipsoid's semi-axes e_t, e_o [-] (ratios of impulses) and e_r [m] (a contact
// patch's radius, 2a/3 for a disk): within 1e6 of 1 (of 1 m).
inline constexpr PhysicalRange kEllipsoidRatioRange{
    "friction ellipsoid semi-axis e_t, e_o",
    "-",
    1e-6,
    1e6,
    false,
    "ratios of tangential to normal impulses, within 1e6 of 1"};
inline constexpr PhysicalRange kEllipsoidRadiusRange{
    "friction ellipsoid semi-axis e_r",
    "m",
    1e-9,
    1e3,
    false,
    "a contact patch's radius: the smallest sphere radius to the largest shape size"};
// Halm & Posa's feedback scaling c [-] and tracking gain k_p [1/s]: 0 has its meaning (perfect
// velocity control, no correction). A nonzero c goes down to 2^-52, double's epsilon: the
// paper's §7 warns that "numerical precision may however be lost for small c", and the disk
// pushing study (examples/disk_pushing/disk_pushing_figures.cc) measures that loss down to
// c = 2^-52, where c B is lost beside the LCP's unit terms; up to 1e9.
inline constexpr PhysicalRange kFeedbackScaleRange{
    "feedback scaling c",
    "-",
    2.220446049250313e-16,
    1e9,
    true,
    "0 is perfect velocity control; else from 2^-52 (below it c B is lost beside the LCP's unit "
    "terms; Halm & Posa 7) to 1e9"};
// ECP's velocity trigger tolerance [m/s or rad/s] (`impulses: - when: {vz: 0}, tolerance: ..`):
// 0 fires on the exact value; else from 1e-12 (below double's resolution of a 1 km/s speed) to
// 1e3 (no velocity of a manipulation scene reaches it).
inline constexpr PhysicalRange kTriggerToleranceRange{
    "impulse trigger tolerance",
    "m/s or rad/s",
    1e-12,
    1e3,
    true,
    "0 fires on the exact value; else from double's resolution of a 1 km/s speed to 1 km/s"};
inline constexpr PhysicalRange kTrackingGainRange{
    "tracking gain",
    "1/s",
    1e-9,
    1e9,
    true,
    "0 is no correction; else a time constant between 1 ns and 30 years"};
// Settings: a small distance, tolerance or step in m or rad (goal and penetration tolerances,
// step sizes, trust regions, sampling σ): from 1e-12 (below it, a 1 km scene's coordinates no
// longer resolve it) to 1e3 (the largest shape size).
inline constexpr PhysicalRange kSettingLengthRange{
    "settings' distance, step or tolerance",
    "m or rad",
    1e-12,
    1e3,
    false,
    "1e-12: below double's resolution of a 1 km coordinate; 1e3: the largest shape size"};
// Settings: a weight of a cost or regularisation term (mixed units): within 1e12 of 1, the ratio
// a Hessian of unit-weight terms resolves.
inline constexpr PhysicalRange kSettingWeightRange{
    "settings' weight or regularisation",
    "(per term)",
    1e-12,
    1e12,
    false,
    "within 1e12 of the unit-weight terms it is added to, which the Hessian resolves"};
// Settings: a wall-clock time limit [s]: 1 µs to 116 days.
inline constexpr PhysicalRange kSettingTimeLimitRange{
    "settings' time limit", "s", 1e-6, 1e7, false, "a microsecond to 116 days of wall clock"};

// Every range above, in declaration order (the docs' table).
const std::vector<const PhysicalRange*>& AllPhysicalRanges();

// "[1e-06, 10] s", "0 or [1e-09, 1e+12] m", "[1e-06, 100]" (a pure number has no unit).
std::string PhysicalRangeText(const PhysicalRange& range);

// True when `value` is usable: within [min, max], or 0 when zero_allowed.
bool InPhysicalRange(const PhysicalRange& range, double value);

// Why `value` is not usable, or empty: "must lie within [1e-06, 10] s, got 1e-320",
// "must be 0 or lie within [1e-09, 1e+12] m, got 1e-320"; `shown` is the value as written
// (the file's text), else NumberText(value).
std::string PhysicalRangeProblem(const PhysicalRange& range, double value,
                                 const std::string& shown = "");

}  // namespace quasidyn
