#pragma once
// A scene built in a test, shared the way the library keeps scenes (model/scene.h, ScenePtr).

#include <memory>
#include <utility>

#include "quasidyn/model/scene.h"

namespace quasidyn::testing {

inline ScenePtr Shared(Scene scene) { return std::make_shared<const Scene>(std::move(scene)); }

}  // namespace quasidyn::testing
