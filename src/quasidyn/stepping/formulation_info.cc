#include "quasidyn/stepping/formulation_info.h"

namespace quasidyn {

const char* StateKindName(StateKind kind) {
  return kind == StateKind::kConfiguration ? "configuration" : "configuration and velocity";
}

const char* CommandKindName(CommandKind kind) {
  switch (kind) {
    case CommandKind::kRobotPositions:
      return "positions of the robots";
    case CommandKind::kRobotVelocities:
      return "velocities of the robots";
    case CommandKind::kObjectImpulses:
      break;
  }
  return "impulses on the objects";
}

}  // namespace quasidyn
