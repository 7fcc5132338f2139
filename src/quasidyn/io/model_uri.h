#pragma once
// The file a model (URDF, SDF, MJCF) names for a mesh, resolved as ROS and Gazebo tools do for
// a model kept in a folder tree, without a ROS or Gazebo installation:
//
//   file:///abs/path.stl          the absolute path
//   package://NAME/rel/path.stl   (ROS) rel/path inside package NAME's folder, found as
//                                 io/package_folders.h says (the scene's `packages:`, the
//                                 command line's --package, ROS_PACKAGE_PATH, package.xml
//                                 files above the model, folders named NAME above it)
//   model://NAME/rel/path.stl     (Gazebo) NAME is the nearest folder at or above the model's
//                                 folder that is named NAME or that holds a folder NAME
//   rel/path.stl, /abs/path.stl   relative to the model's folder, or absolute.

#include <string>

#include "quasidyn/io/package_folders.h"
#include "quasidyn/io/scene_builder.h"

namespace quasidyn {

// Throws SceneError at `where` when a package:// or model:// name is not found: "<at>cannot
// resolve <uri>: package 'NAME' not found; searched: ..." naming every place searched (`at` is
// prepended to the problem, e.g. "arm.urdf:14: link 'arm' <collision>: "). The file itself is
// not checked (its reader names it when it is missing).
std::string ResolveModelUri(const std::string& uri, const std::string& model_directory,
                            const SourceLocation& where, const PackageSearch& packages = {},
                            const std::string& at = "");

}  // namespace quasidyn
