#pragma once
// quasidyn.view(run, path, plans=[...], plan_starts=[...]): the page of a plant's run with each
// plan it ran drawn over it (viewer/execution_page.h), from Python's trajectories.

#include <memory>
#include <optional>
#include <vector>

#include "quasidyn/model/scene.h"
#include "quasidyn/simulation/trajectory.h"
#include "quasidyn/viewer/execution_page.h"

namespace quasidyn::python {

// The view of `plant` (the run the page animates) with `plans` (each a trajectory of the scene,
// every step recorded, at its own h) starting at `plan_starts` [s] (one per plan, the first 0;
// default: each where the previous one's steps end). A plan ran until the next one started (the
// last until the run's end, each at most its steps). With the scene's planning block, D to its
// goal (planning.goal) of the run and of every plan, a plan found when its last configuration is
// within the goal's tolerance; without one, no D. A plan's deepest overlap is that of the run's
// recorded contacts (−φ at each step's start) while it ran. std::invalid_argument naming the
// argument ("plans[1]: ...", "plan_starts: ...") for no plan, a thinned plan, starts of another
// count; the page itself checks the rest (WriteExecutionHtml).
ExecutionView ExecutionViewOf(const Scene& scene, const Trajectory& plant,
                              const std::vector<std::shared_ptr<Trajectory>>& plans,
                              const std::optional<std::vector<double>>& plan_starts);

}  // namespace quasidyn::python
