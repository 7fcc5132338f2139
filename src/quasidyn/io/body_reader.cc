#include "quasidyn/io/body_reader.h"

#include <stdexcept>

#include "quasidyn/io/mesh_inertia.h"
#include "quasidyn/io/shape_reader.h"
#include "quasidyn/io/solid_inertia.h"

namespace quasidyn {

Eigen::Matrix3d ReadPrincipalOrMatrix(const YamlValue& value, const PhysicalRange* diagonal) {
  value.CheckKeys({"principal", "matrix"});
  if (value.Has("principal") == value.Has("matrix")) {
    value.Fail("give exactly one of principal or matrix");
  }
  if (const auto principal = value.Find("principal")) {
    const Eigen::Vector3d d = principal->AsVector3();
    if (diagonal != nullptr)
      for (const YamlValue& item : principal->Items()) item.AsDouble(*diagonal);
    return d.asDiagonal();
  }
  const std::vector<YamlValue> rows = value.Get("matrix").Items();
  if (rows.size() != 3) value.Get("matrix").Fail("must have 3 rows");
  Eigen::Matrix3d matrix;
  for (int r = 0; r < 3; ++r) {
    matrix.row(r) = rows[r].AsVector3().transpose();
    if (diagonal != nullptr) rows[r].Items()[r].AsDouble(*diagonal);
  }
  return matrix;
}

BodySpec ReadBody(const YamlValue& value, bool planar, const std::string& scene_name,
                  const std::vector<std::string>& extra_keys, const std::string& base_directory) {
  std::vector<std::string> keys = {"mass", "com", "inertia", "shapes"};
  keys.insert(keys.end(), extra_keys.begin(), extra_keys.end());
  value.CheckKeys(keys);
  BodySpec body;
  body.name = scene_name;
  body.where = {value.file(), value.line(), value.path()};
  const YamlValue mass = value.Get("mass");
  body.mass = mass.AsDouble(kMassRange);
  if (const auto shapes = value.Find("shapes")) {
    const std::vector<YamlValue> items = shapes->Items();
    for (size_t i = 0; i < items.size(); ++i) {
      ShapeSpec shape = ReadShape(items[i], planar, std::to_string(i), base_directory);
      shape.name = scene_name + "/" + shape.name;
      body.shapes.push_back(shape);
    }
  }
  const YamlValue inertia = value.Get("inertia");
  body.inertia_where = {inertia.file(), inertia.line(), inertia.path()};
  const std::optional<YamlValue> com = value.Find("com");
  if (inertia.IsScalar()) {
    if (inertia.AsString() != "from_shapes") {
      inertia.Fail("must be from_shapes, {principal: [...]} or {matrix: [[...]]}");
    }
    if (body.shapes.empty()) inertia.Fail("from_shapes needs at least one shape");
    if (com) com->Fail("com is the first shape's centre with inertia: from_shapes");
    const ShapeSpec& first = body.shapes.front();
    const Eigen::Matrix3d R = first.X_BS.linear();
    try {
      if (first.mesh != nullptr) {  // a mesh: its closed surface's solid (io/mesh_inertia.h)
        const MeshSolid solid = MeshSolidProperties(*first.mesh, body.mass);
        body.inertia = R * solid.inertia * R.transpose();
        body.com = first.X_BS * solid.com;
      } else {
        body.inertia = R * SolidInertia(first.shape, body.mass, planar ? 0 : 2) * R.transpose();
        body.com = first.X_BS.translation();
      }
    } catch (const std::invalid_argument& e) {
      inertia.Fail(std::string("from_shapes: ") + e.what());
    }
  } else {
    body.inertia = ReadPrincipalOrMatrix(inertia, &kInertiaRange);
    if (com) body.com = com->AsVector3();
  }
  return body;
}

}  // namespace quasidyn
