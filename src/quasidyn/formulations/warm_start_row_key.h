#pragma once
// The key of a constraint row that a warm start follows from one step to the next (the QP's
// pyramid rows, qp/pyramid_qp_warm_start.h; the SOCP's linear rows and cone entries,
// socp/friction_cone_socp_warm_start.h): the row's geometry pair (a, b), the contact's place
// among the pair's manifold points (occurrence) and the row's index within the contact (a ray,
// a cone entry); a joint-limit row is (a = −1, b = its joint, occurrence = its side, 0).

namespace quasidyn {

// Packs (a + 1, b, occurrence, index) into 20 + 20 + 14 + 10 bits of *key; false when one does
// not fit (the warm start then starts cold) or a < −1 or another is negative.
inline bool PackWarmStartRowKey(int a, int b, int occurrence, int index, unsigned long long* key) {
  if (a < -1 || b < 0 || occurrence < 0 || index < 0) return false;
  const unsigned long long fields[4] = {
      static_cast<unsigned long long>(a + 1), static_cast<unsigned long long>(b),
      static_cast<unsigned long long>(occurrence), static_cast<unsigned long long>(index)};
  constexpr int kBits[4] = {20, 20, 14, 10};
  unsigned long long packed = 0;
  for (int f = 0; f < 4; ++f) {
    if (fields[f] >> kBits[f] != 0) return false;
    packed = (packed << kBits[f]) | fields[f];
  }
  *key = packed;
  return true;
}

}  // namespace quasidyn
