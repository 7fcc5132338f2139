#include "quasidyn/gradients/randomized_smoothing_sampler.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

namespace quasidyn {
namespace {

// The first SplitMix64 output from state 0 is 0xE220A8397B1DCDAF, the value published with
// the reference implementation (Vigna, prng.di.unimi.it/splitmix64.c) and reproduced by an
// independent Python implementation.
TEST(SplitMix64, MatchesTheReferenceOutput) {
  std::uint64_t state = 0;
  EXPECT_EQ(SplitMix64Next(&state), 0xE220A8397B1DCDAFULL);
  EXPECT_EQ(state, 0x9E3779B97F4A7C15ULL);
}

// xoshiro256** from the state (1, 2, 3, 4), by hand (Blackman & Vigna's update):
//   out₁ = rotl(2·5, 7)·9 = 10·128·9 = 11520;
//   state → (7, 0, 2 ⊕ 2¹⁸, rotl(6, 45)); out₂ = rotl(0, 7)·9 = 0;
//   state → (…, 0 ⊕ (2 ⊕ 2¹⁸ ⊕ 7), …) = s₁ 262149; out₃ = 262149·5·128·9 = 1509978240.
TEST(Xoshiro256StarStar, MatchesAHandComputedSequence) {
  Xoshiro256StarStar generator(1, 2, 3, 4);
  EXPECT_EQ(generator.Next(), 11520u);
  EXPECT_EQ(generator.Next(), 0u);
  EXPECT_EQ(generator.Next(), 1509978240u);
  EXPECT_THROW(Xoshiro256StarStar(0, 0, 0, 0), std::invalid_argument);
}

TEST(Xoshiro256StarStar, UniformsLieInTheHalfOpenUnitInterval) {
  Xoshiro256StarStar generator(42);
  double sum = 0.0;
  const int n = 100000;
  for (int i = 0; i < n; ++i) {
    const double x = generator.NextUniform();
    ASSERT_GE(x, 0.0);
    ASSERT_LT(x, 1.0);
    sum += x;
  }
  // Mean 1/2, standard deviation of the mean √(1/12)/√n ≈ 9.1e-4: 5 of them.
  EXPECT_NEAR(sum / n, 0.5, 5 * std::sqrt(1.0 / 12.0 / n));
}

// Against the C library's ln (correctly rounded or within 1 ulp in glibc): within 4 ulp of
// the result, exact where ln is exact.
TEST(PortableLog, AgreesWithStdLogToAFewUlp) {
  EXPECT_EQ(PortableLog(1.0), 0.0);
  for (double x : {1e-300, 1e-10, 0.001, 0.1, 0.5, 0.7071, 0.7072, 0.9, 0.999999, 1.000001, 1.5,
                   2.0, 3.0, 10.0, 12345.678, 1e10, 1e300, 4.9e-324}) {
    const double expected = std::log(x);
    const double ulp = std::nextafter(std::abs(expected), INFINITY) - std::abs(expected);
    EXPECT_NEAR(PortableLog(x), expected, 4 * ulp) << "x = " << x;
  }
  // ln(2^k) = k ln 2.
  EXPECT_NEAR(PortableLog(std::ldexp(1.0, -40)), -40 * std::log(2.0), 4e-14);
  EXPECT_THROW(PortableLog(0.0), std::invalid_argument);
  EXPECT_THROW(PortableLog(-1.0), std::invalid_argument);
  EXPECT_THROW(PortableLog(std::numeric_limits<double>::quiet_NaN()), std::invalid_argument);
  EXPECT_THROW(PortableLog(std::numeric_limits<double>::infinity()), std::invalid_argument);
}

// Moments of N(0, 1) over 200000 numbers: mean within 5/√n, variance 1 within 5·√(2/n),
// fourth moment 3 within 5·√(96/n) (Var of x⁴ is 105 − 9 = 96), P(|x| < 1) = 0.682689 within
// 5·√(p(1 − p)/n).
TEST(StandardNormal, HasTheMomentsOfAStandardNormal) {
  const int n = 200000;
  double sum = 0, sum2 = 0, sum4 = 0;
  int inside = 0;
  for (int i = 0; i < n / 10; ++i) {
    const Eigen::VectorXd x = StandardNormalSample(7, i, 10);
    for (double v : x) {
      sum += v;
      sum2 += v * v;
      sum4 += v * v * v * v;
      inside += std::abs(v) < 1.0;
    }
  }
  EXPECT_NEAR(sum / n, 0.0, 5 / std::sqrt(n));
  EXPECT_NEAR(sum2 / n, 1.0, 5 * std::sqrt(2.0 / n));
  EXPECT_NEAR(sum4 / n, 3.0, 5 * std::sqrt(96.0 / n));
  const double p = 0.682689492137;
  EXPECT_NEAR(static_cast<double>(inside) / n, p, 5 * std::sqrt(p * (1 - p) / n));
}

// Sample i is a function of (seed, i) only: recomputing it, alone or after other samples,
// gives the same bits; other seeds or indices give other numbers; a longer vector starts
// with the shorter one (numbers come in polar pairs, so up to the last odd entry).
TEST(StandardNormal, SampleDependsOnlyOnSeedAndIndex) {
  const Eigen::VectorXd a = StandardNormalSample(123, 17, 9);
  (void)StandardNormalSample(123, 16, 9);
  const Eigen::VectorXd b = StandardNormalSample(123, 17, 9);
  ASSERT_EQ(a.size(), 9);
  EXPECT_EQ(std::memcmp(a.data(), b.data(), sizeof(double) * 9), 0);
  EXPECT_NE(a, StandardNormalSample(124, 17, 9));
  EXPECT_NE(a, StandardNormalSample(123, 18, 9));
  const Eigen::VectorXd longer = StandardNormalSample(123, 17, 12);
  EXPECT_EQ(std::memcmp(a.data(), longer.data(), sizeof(double) * 8), 0);
  // Samples of one seed are uncorrelated: the correlation of entry 0 between consecutive
  // samples over 20000 pairs is within 5/√n of 0.
  double cross = 0;
  const int n = 20000;
  Eigen::VectorXd previous = StandardNormalSample(5, 0, 1);
  for (int i = 1; i <= n; ++i) {
    const Eigen::VectorXd current = StandardNormalSample(5, i, 1);
    cross += previous[0] * current[0];
    previous = current;
  }
  EXPECT_NEAR(cross / n, 0.0, 5 / std::sqrt(n));
  EXPECT_EQ(StandardNormalSample(1, 2, 0).size(), 0);
  Xoshiro256StarStar generator(1);
  EXPECT_THROW(StandardNormalVector(&generator, -1), std::invalid_argument);
}

}  // namespace
}  // namespace quasidyn
