#pragma once
// The web viewer's JavaScript: viewer/src/*.js with three.js, bundled and minified by esbuild
// when the project is built (viewer/CMakeLists.txt). The definition is generated into the build
// tree (viewer/tools/embed_bundle.cjs writes viewer_bundle.cc); the text never contains
// "</script", so it can be inlined into an HTML <script> element as is.

#include <string_view>

namespace quasidyn {

// The bundle's text: an immediately invoked function that reads the JSON of the
// <script id="quasidyn-data" type="application/json"> element and builds the page.
std::string_view ViewerBundle();

}  // namespace quasidyn
