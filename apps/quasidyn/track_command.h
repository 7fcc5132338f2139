#pragma once
// `quasidyn track PLAN.json --plant-scene SCENE [--scene MODEL_SCENE] [--offset DX DY [DZ]]
//  [--friction-scale S] [--substeps N] [--open-loop] [--kappa K] [--replan R] [--out executed.json]
//  [--html page.html]`:
// runs a plan (a trajectory file, e.g. from `quasidyn optimize`) on a plant that differs from
// the planning model (control/plan_tracking.h): the plant scene, its objects' start moved by
// the offset [m], every friction coefficient times S, its time step h/N (N plant steps per
// command). Closed loop (the stabiliser of control/stabilizer.h on the planning model, smoothed
// with κ) unless --open-loop. Writes the executed trajectory and reports the final object error;
// --html writes the plant's run with each plan it ran drawn over it (track_page.h).
// The planning model is the plan's scene file (or --scene) with the plan's h and formulation.
// Exit codes: 0 done; 2 bad input (message on stderr); 3 a plant step failed.

#include <CLI/CLI.hpp>

namespace quasidyn::cli {

void AddTrackCommand(CLI::App& app);

}  // namespace quasidyn::cli
