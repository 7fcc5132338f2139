#pragma once
// A portable, seeded source of Gaussian perturbations for randomized smoothing
// (randomized_smoothing.h). Sample i depends only on (seed, i), and the numbers are
// bitwise identical on every platform, compiler and thread count, because every step uses
// only 64-bit integer arithmetic and the correctly rounded IEEE-754 operations + − × ÷ √
// (no std::normal_distribution, whose algorithm is implementation-defined, and no libm
// log/sin/cos, whose last bit may differ between C libraries).
//
//   * SplitMix64 (Steele, Lea & Flood, "Fast splittable pseudorandom number generators",
//     OOPSLA 2014): a 64-bit mixer, used to turn (seed, i) into a generator state.
//   * xoshiro256** (Blackman & Vigna, "Scrambled linear pseudorandom number generators",
//     ACM TOMS 2021): the uniform generator, its 256-bit state seeded by four SplitMix64
//     outputs as its authors recommend.
//   * Uniforms: the top 53 bits of a 64-bit word times 2⁻⁵³ (exact in double).
//   * Normals: Marsaglia's polar method (Marsaglia & Bray, "A convenient method for
//     generating normal variables", SIAM Review 6(3), 1964): draw (a, b) uniform in the
//     square [−1, 1)², reject unless 0 < s = a² + b² < 1, return a·√(−2 ln s / s) and
//     b·√(−2 ln s / s), two independent N(0, 1) numbers. ln is PortableLog below.
// Requires IEEE-754 binary64 doubles evaluated without extended precision or fused
// multiply-add contraction (the default of GCC and Clang for ISO C++ on x86-64 and aarch64
// with -std=c++20).

#include <Eigen/Core>
#include <cstdint>

namespace quasidyn {

// One step of SplitMix64: advances *state by the golden-ratio increment 0x9E3779B97F4A7C15
// and returns the mixed value (Steele et al. 2014, Fig. 1).
std::uint64_t SplitMix64Next(std::uint64_t* state);

// xoshiro256**, Blackman & Vigna 2021. Period 2²⁵⁶ − 1.
class Xoshiro256StarStar {
 public:
  // State = four consecutive SplitMix64 outputs from `seed` (never all zero).
  explicit Xoshiro256StarStar(std::uint64_t seed);
  // The raw state (must not be all zero; throws std::invalid_argument then). For tests.
  Xoshiro256StarStar(std::uint64_t s0, std::uint64_t s1, std::uint64_t s2, std::uint64_t s3);
  std::uint64_t Next();
  // Uniform on [0, 1): (Next() >> 11) · 2⁻⁵³.
  double NextUniform();

 private:
  std::uint64_t s_[4];
};

// ln x for finite x > 0, with only + − × ÷ and exact scaling by powers of two:
// x = m·2^e with m ∈ [√½, √2), ln x = e·ln 2 + 2 atanh(r), r = (m − 1)/(m + 1), |r| < 0.172,
// atanh(r) = r + r³/3 + r⁵/5 + … summed to r²³/23 (next term < 2·10⁻¹⁹ relative), ln 2 in two
// parts (Cody & Waite, "Software Manual for the Elementary Functions", 1980). Accurate to a
// few units in the last place. Throws std::invalid_argument for x <= 0, NaN or infinity.
double PortableLog(double x);

// The generator of sample i of a seeded sample set: xoshiro256** seeded with
// SplitMix64-mixed (seed, i), so that sample sets with different seeds, and different
// samples of one set, use unrelated streams.
Xoshiro256StarStar SampleGenerator(std::uint64_t seed, std::uint64_t sample_index);

// `dimension` (>= 0) independent N(0, 1) numbers drawn from *generator by the polar method
// (pairs; the second number of the last pair is dropped when dimension is odd).
Eigen::VectorXd StandardNormalVector(Xoshiro256StarStar* generator, int dimension);

// StandardNormalVector(SampleGenerator(seed, sample_index), dimension): sample i of a seeded
// set, a function of (seed, i, dimension) only.
Eigen::VectorXd StandardNormalSample(std::uint64_t seed, std::uint64_t sample_index, int dimension);

}  // namespace quasidyn
