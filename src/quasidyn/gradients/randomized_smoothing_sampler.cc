#include "quasidyn/gradients/randomized_smoothing_sampler.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace quasidyn {
namespace {

constexpr std::uint64_t RotateLeft(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

// SplitMix64's output mixer (the finaliser of Steele et al. 2014, Fig. 1) without the
// increment: a bijection of 64-bit words.
constexpr std::uint64_t Mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

}  // namespace

std::uint64_t SplitMix64Next(std::uint64_t* state) {
  *state += 0x9E3779B97F4A7C15ULL;
  return Mix64(*state);
}

Xoshiro256StarStar::Xoshiro256StarStar(std::uint64_t seed) {
  std::uint64_t state = seed;
  for (std::uint64_t& word : s_) word = SplitMix64Next(&state);
  // Four consecutive SplitMix64 outputs are distinct (Mix64 is a bijection of distinct
  // inputs), so the state is never all zero.
}

Xoshiro256StarStar::Xoshiro256StarStar(std::uint64_t s0, std::uint64_t s1, std::uint64_t s2,
                                       std::uint64_t s3)
    : s_{s0, s1, s2, s3} {
  if ((s0 | s1 | s2 | s3) == 0)
    throw std::invalid_argument("Xoshiro256StarStar: the state must not be all zero");
}

// Blackman & Vigna 2021, xoshiro256** reference code: output rotl(s1·5, 7)·9, then the
// linear update of the state.
std::uint64_t Xoshiro256StarStar::Next() {
  const std::uint64_t result = RotateLeft(s_[1] * 5, 7) * 9;
  const std::uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = RotateLeft(s_[3], 45);
  return result;
}

double Xoshiro256StarStar::NextUniform() {
  return static_cast<double>(Next() >> 11) * 0x1.0p-53;  // exact: 53-bit integer × 2⁻⁵³
}

double PortableLog(double x) {
  if (!std::isfinite(x) || !(x > 0))
    throw std::invalid_argument("PortableLog: the argument must be finite and > 0 (got " +
                                std::to_string(x) + ")");
  int exponent = 0;
  double m = std::frexp(x, &exponent);  // exact: x = m·2^exponent, m ∈ [0.5, 1)
  if (m < 0.70710678118654752440) {     // √½: move m to [√½, √2)
    m *= 2.0;                           // exact
    --exponent;
  }
  const double r = (m - 1.0) / (m + 1.0);
  const double r2 = r * r;
  // atanh(r) = r Σ_{k=0}^{11} r^{2k}/(2k + 1), Horner's scheme.
  double series = 1.0 / 23.0;
  for (int k = 10; k >= 0; --k) series = 1.0 / (2 * k + 1) + r2 * series;
  const double log_m = 2.0 * r * series;
  // ln 2 = kLn2High + kLn2Low with kLn2High = 355/512 (9 significant bits, so e·kLn2High is
  // exact for |e| < 2⁴⁴), Cody & Waite 1980.
  constexpr double kLn2High = 0.693359375;
  constexpr double kLn2Low = -2.121944400546905827679e-4;
  const double e = exponent;
  return (e * kLn2Low + log_m) + e * kLn2High;
}

Xoshiro256StarStar SampleGenerator(std::uint64_t seed, std::uint64_t sample_index) {
  // Mix the seed first so that (seed, i) and (seed + 1, i − 1)-like pairs do not collide,
  // then offset by the sample index and seed xoshiro from that word through SplitMix64.
  return Xoshiro256StarStar(Mix64(seed) ^ Mix64(sample_index + 0x632BE59BD9B4E019ULL));
}

Eigen::VectorXd StandardNormalVector(Xoshiro256StarStar* generator, int dimension) {
  if (dimension < 0)
    throw std::invalid_argument("StandardNormalVector: dimension must be >= 0 (got " +
                                std::to_string(dimension) + ")");
  Eigen::VectorXd out(dimension);
  for (int i = 0; i < dimension; i += 2) {
    double a = 0.0, b = 0.0, s = 0.0;
    do {
      a = 2.0 * generator->NextUniform() - 1.0;
      b = 2.0 * generator->NextUniform() - 1.0;
      s = a * a + b * b;
    } while (!(s > 0.0 && s < 1.0));
    const double scale = std::sqrt(-2.0 * PortableLog(s) / s);
    out[i] = a * scale;
    if (i + 1 < dimension) out[i + 1] = b * scale;
  }
  return out;
}

Eigen::VectorXd StandardNormalSample(std::uint64_t seed, std::uint64_t sample_index,
                                     int dimension) {
  Xoshiro256StarStar generator = SampleGenerator(seed, sample_index);
  return StandardNormalVector(&generator, dimension);
}

}  // namespace quasidyn
