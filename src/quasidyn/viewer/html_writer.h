#pragma once
// One self-contained HTML page that animates a trajectory in 3D (three.js, bundled into the
// page: it needs no network). `quasidyn view` and `quasidyn simulate --html` write it.
// The page: play/pause, a time slider, speed control, an orbiting camera, toggles for contact
// points and contact-force arrows (length ∝ |F|), and the scene, formulation, h, time and the
// step's solver status. Its data is viewer_data.h's JSON.

#include <string>

#include "quasidyn/model/scene.h"
#include "quasidyn/simulation/trajectory.h"
#include "quasidyn/viewer/viewer_data.h"

namespace quasidyn {

// The page as text. Throws std::invalid_argument (viewer_data.h) when the trajectory does not
// fit the scene.
std::string ViewerHtmlToString(const Scene& scene, const Trajectory& trajectory,
                               const ViewerDataOptions& options = {});

// Writes the page to `path`, atomically (common/atomic_file_writer.h: a failed write leaves a
// previous file as it was). Throws std::invalid_argument as above and for an empty path,
// std::runtime_error naming the path and the reason when it cannot be written.
void WriteViewerHtml(const Scene& scene, const Trajectory& trajectory, const std::string& path,
                     const ViewerDataOptions& options = {});

// JSON text made safe inside an HTML <script> element: every '<' becomes the JSON escape
// \u003c, so neither "</script" nor "<!--" (HTML Living Standard § 4.12.1.3, restrictions for
// contents of script elements) can occur. '<' can only stand inside JSON strings, where the
// escape reads back as the same character.
std::string EscapeJsonForScriptElement(const std::string& json_text);

}  // namespace quasidyn
