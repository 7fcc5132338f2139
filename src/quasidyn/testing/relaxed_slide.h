#pragma once
// The closed-form motion of a block sliding on the ground under Anitescu's relaxation (the
// anitescu and anitescu-cone formulations, docs/formulations.md): its friction rows let a
// sliding contact separate at the normal speed μ u, so the block hops along. For a block without
// rotation, n the vertical and the friction against the motion, one step of h either flies (no
// impulse: u⁺ = u, w⁺ = w − g h, when that keeps φ/h + w⁺ − μ u⁺ >= 0) or ends on the row
// φ/h + w⁺ = μ u⁺ with the momentum balance m(u⁺ − u) = −μβ, m(w⁺ − w) = −m g h + β, i.e.
// u⁺ = (u − μ(−φ/h − w + g h))/(1 + μ²). The block sticks once u⁺ would be <= 0.
// Header only, for tests.

namespace quasidyn::testing {

struct RelaxedSlideStep {
  double u = 0.0;       // tangential speed after the step [m/s]
  double w = 0.0;       // normal velocity after the step [m/s]
  bool flight = false;  // the step had no contact impulse
};

// From tangential speed u [m/s], normal velocity w [m/s] and gap φ [m] at the step's start;
// μ >= 0, g > 0 [m/s²], h > 0 [s].
inline RelaxedSlideStep NextRelaxedSlide(double u, double w, double phi, double mu, double g,
                                         double h) {
  RelaxedSlideStep next{u, w - g * h, true};
  if (phi / h + next.w - mu * next.u < 0) {
    next.u = (u - mu * (-phi / h - w + g * h)) / (1 + mu * mu);
    next.w = mu * next.u - phi / h;
    next.flight = false;
  }
  return next;
}

}  // namespace quasidyn::testing
