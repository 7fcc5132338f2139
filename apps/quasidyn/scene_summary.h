#pragma once
// A Scene and its contact set rendered for people (text) and programs (JSON).

#include <nlohmann/json.hpp>

#include "quasidyn/contact/contact_set.h"
#include "quasidyn/model/scene.h"

namespace quasidyn::cli {

nlohmann::json SceneSummaryJson(const Scene& scene, const ContactSet& contacts);
std::string SceneSummaryText(const Scene& scene, const ContactSet& contacts);

}  // namespace quasidyn::cli
