#pragma once
// The file a model (URDF, SDF, MJCF) names for a mesh, resolved as ROS and Gazebo tools do for
// a model kept in a folder tree, without a ROS or Gazebo installation:
//
//   file:///abs/path.stl          the absolute path
//   package://NAME/rel/path.stl   (ROS) and model://NAME/rel/path.stl (Gazebo): NAME is the
//                                 nearest folder at or above the model's folder that is named
//                                 NAME or that holds a folder NAME; then rel/path inside it
//   rel/path.stl, /abs/path.stl   relative to the model's folder, or absolute.

#include <string>

#include "quasidyn/io/scene_builder.h"

namespace quasidyn {

// Throws SceneError at `where` naming the URI when a package:// or model:// name is not found.
// The file itself is not checked (its reader names it when it is missing).
std::string ResolveModelUri(const std::string& uri, const std::string& model_directory,
                            const SourceLocation& where);

}  // namespace quasidyn
