#pragma once
// Bodies welded together: a chain of fixed joints joins them, so they never move relative to each
// other and a contact between their shapes would be an inert row (a zero relative Jacobian). The
// reference quasistatic simulator's Drake drops such pairs; Scene::IsFiltered drops them too
// (with the same body and the pairs of Scene::collision_filter), so no formulation sees them.

#include <vector>

#include "quasidyn/model/scene.h"

namespace quasidyn {

// For every body, the topmost body reached from it through fixed joints only: 0 (the world) for a
// body welded to the world, the body itself when its own joint moves. Two bodies of one weld
// root are welded together. Size scene.bodies.size(); one pass over the joints.
std::vector<int> WeldRoots(const Scene& scene);

// The pairs of bodies that both carry collision shapes, are welded together and are not in
// scene.collision_filter: the pairs Scene::IsFiltered drops for the weld alone (`quasidyn info`
// prints the count).
int WeldedPairCount(const Scene& scene);

}  // namespace quasidyn
