#pragma once
// The formulations built into quasidyn, one registration per folder (formulations/<name>/):
// qp, socp, log-barrier, log-barrier-cone, lcp, halm-posa, stewart-trinkle, anitescu, ecp.
// FormulationRegistry::Global() calls it once; a test may fill a registry of its own.

namespace quasidyn {

class FormulationRegistry;

void RegisterBuiltinFormulations(FormulationRegistry* registry);

}  // namespace quasidyn
