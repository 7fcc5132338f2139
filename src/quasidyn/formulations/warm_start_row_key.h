#pragma once
// The key of a constraint row that a warm start follows from one step to the next (the QP's
// pyramid rows, programs/pyramid_qp_warm_start.h; the SOCP's linear rows and cone entries,
// programs/friction_cone_socp_warm_start.h): the row's geometry pair (a, b), the contact's place
// among the pair's manifold points (occurrence) and the row's index within the contact (a ray,
// a cone entry); a joint-limit row is (a = −1, b = its joint, occurrence = its side, 0).

#include <algorithm>
#include <vector>

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

// The keys of the previous step's rows, in row order, and which of those rows a key stands for.
// When the new rows have the same keys in the same order (most steps along a rollout: the same
// contacts), SameAs says so and each row is the previous row of its index; otherwise Find looks
// a key up in a sorted copy, made by the first Find after each Remember. No heap allocation once
// the buffers have held a step's rows.
class PreviousRowKeys {
 public:
  using RowKey = unsigned long long;

  // Takes *keys (the solved step's rows); *keys is left with storage to reuse, its contents
  // unspecified.
  void Remember(std::vector<RowKey>* keys) {
    keys_.swap(*keys);
    sorted_.clear();
  }
  void Clear() {
    keys_.clear();
    sorted_.clear();
  }
  bool SameAs(const std::vector<RowKey>& keys) const { return keys == keys_; }
  int size() const { return static_cast<int>(keys_.size()); }

  // The previous row of `key`, or −1 when no previous row had it.
  int Find(RowKey key) {
    if (sorted_.size() != keys_.size()) {
      sorted_.clear();
      for (size_t r = 0; r < keys_.size(); ++r) sorted_.push_back({keys_[r], static_cast<int>(r)});
      std::sort(sorted_.begin(), sorted_.end(),
                [](const KeyedRow& a, const KeyedRow& b) { return a.key < b.key; });
    }
    const auto found = std::lower_bound(sorted_.begin(), sorted_.end(), key,
                                        [](const KeyedRow& a, RowKey k) { return a.key < k; });
    return found != sorted_.end() && found->key == key ? found->row : -1;
  }

 private:
  struct KeyedRow {
    RowKey key;
    int row;
  };
  std::vector<RowKey> keys_;
  std::vector<KeyedRow> sorted_;  // keys_ sorted, once a Find needs it
};

}  // namespace quasidyn
