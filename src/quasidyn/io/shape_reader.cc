#include "quasidyn/io/shape_reader.h"

#include <cmath>
#include <filesystem>

#include "quasidyn/io/mesh_shape.h"

namespace quasidyn {

Eigen::Matrix3d RotationFromRollPitchYaw(const Eigen::Vector3d& rpy) {
  return (Eigen::AngleAxisd(rpy.z(), Eigen::Vector3d::UnitZ()) *
          Eigen::AngleAxisd(rpy.y(), Eigen::Vector3d::UnitY()) *
          Eigen::AngleAxisd(rpy.x(), Eigen::Vector3d::UnitX()))
      .toRotationMatrix();
}

Eigen::Isometry3d ReadPose(const YamlValue& value, bool planar) {
  Eigen::Isometry3d X = Eigen::Isometry3d::Identity();
  if (planar) {
    value.CheckKeys({"x", "y", "theta"});
    const auto number = [&](const char* key) {
      const std::optional<YamlValue> v = value.Find(key);
      return v ? v->AsDouble() : 0.0;
    };
    X.translation() = Eigen::Vector3d(number("x"), number("y"), 0.0);
    X.linear() = Eigen::AngleAxisd(number("theta"), Eigen::Vector3d::UnitZ()).toRotationMatrix();
  } else {
    value.CheckKeys({"xyz", "rpy"});
    if (const auto xyz = value.Find("xyz")) X.translation() = xyz->AsVector3();
    if (const auto rpy = value.Find("rpy")) X.linear() = RotationFromRollPitchYaw(rpy->AsVector3());
  }
  return X;
}

std::string ResolveScenePath(const std::string& path, const std::string& base_directory) {
  const std::filesystem::path p(path);
  if (p.is_absolute() || base_directory.empty()) return path;
  return (std::filesystem::path(base_directory) / p).lexically_normal().string();
}

Eigen::Vector3d ReadMeshScale(const YamlValue& value) {
  if (value.IsScalar()) return Eigen::Vector3d::Constant(value.AsDouble(0.0, false));
  const Eigen::Vector3d scale = value.AsVector3();
  if (!(scale.minCoeff() > 0.0)) value.Fail("every scale must be > 0");
  return scale;
}

ShapeSpec ReadShape(const YamlValue& value, bool planar, const std::string& default_name,
                    const std::string& base_directory) {
  ShapeSpec spec;
  spec.where = {value.file(), value.line(), value.path()};
  const std::string type = value.Get("type").AsString();
  const std::vector<std::string> common = {"name", "type", "pose", "friction"};
  const auto keys = [&](std::vector<std::string> extra) {
    extra.insert(extra.end(), common.begin(), common.end());
    value.CheckKeys(extra);
  };
  Shape& shape = spec.shape;
  if (type == "sphere") {
    keys({"radius"});
    shape.type = ShapeType::kSphere;
    shape.radius = value.Get("radius").AsDouble(0.0, false);
  } else if (type == "box") {
    keys({"size"});
    shape.type = ShapeType::kBox;
    const YamlValue size = value.Get("size");
    shape.size = size.AsVector3();
    if (!(shape.size.minCoeff() > 0.0)) size.Fail("every side must be > 0");
  } else if (type == "cylinder" || type == "capsule") {
    keys({"radius", "length"});
    shape.type = type == "cylinder" ? ShapeType::kCylinder : ShapeType::kCapsule;
    if (planar && shape.type == ShapeType::kCylinder) {
      value.Get("type").Fail("cylinder shapes are not available in planar scenes");
    }
    shape.radius = value.Get("radius").AsDouble(0.0, false);
    shape.length = value.Get("length").AsDouble(0.0, false);
  } else if (type == "half_space") {
    keys({});
    shape.type = ShapeType::kHalfSpace;
  } else if (type == "convex") {
    keys({"vertices"});
    shape.type = ShapeType::kConvex;
    for (const YamlValue& vertex : value.Get("vertices").Items()) {
      shape.vertices.push_back(vertex.AsVector3());
    }
  } else if (type == "mesh") {  // the convex hull of a mesh file (io/mesh_shape.h)
    keys({"file", "scale"});
    if (planar) value.Get("type").Fail("mesh shapes are for 3D scenes");
    const YamlValue file = value.Get("file");
    const Eigen::Vector3d scale =
        value.Has("scale") ? ReadMeshScale(value.Get("scale")) : Eigen::Vector3d::Ones();
    MeshShape mesh = ConvexMeshShape(ResolveScenePath(file.AsString(), base_directory), scale,
                                     {file.file(), file.line(), file.path()});
    shape = mesh.shape;
    spec.mesh = mesh.mesh;
  } else {
    value.Get("type").Fail("unknown shape type '" + type +
                           "' (sphere, box, cylinder, capsule, half_space, convex, mesh)");
  }
  spec.name = value.Has("name") ? value.Get("name").AsString() : default_name;
  if (const auto pose = value.Find("pose")) spec.X_BS = ReadPose(*pose, planar);
  spec.friction = value.Get("friction").AsDouble(kFrictionRange);
  return spec;
}

}  // namespace quasidyn
