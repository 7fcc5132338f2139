#include "quasidyn/gradients/batch_linearize.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <stdexcept>
#include <string>
#include <thread>

namespace quasidyn {
namespace {

void CheckVector(const Eigen::VectorXd& x, int expected_size, const char* name, size_t index) {
  const std::string where = "point " + std::to_string(index) + ": ";
  if (x.size() != expected_size)
    throw std::invalid_argument(where + name + " has size " + std::to_string(x.size()) +
                                ", expected " + std::to_string(expected_size));
  for (Eigen::Index k = 0; k < x.size(); ++k) {
    if (!std::isfinite(x[k]))
      throw std::invalid_argument(where + name + "[" + std::to_string(k) + "] is not finite");
  }
}

// Item i by `linearizer`; a thrown exception becomes the item's failure (it must not escape
// a worker thread, and must not stop the other items).
Linearization LinearizeOne(Linearizer* linearizer, const LinearizationPoint& point,
                           GradientMode mode, GradientMethod method) {
  try {
    return linearizer->Linearize(point.q, point.u, mode, method);
  } catch (const std::exception& error) {
    Linearization failed;
    failed.status = SolverStatus::kNumericalFailure;
    failed.message = std::string("exception: ") + error.what();
    failed.q_next = point.q;
    return failed;
  }
}

}  // namespace

BatchLinearizer::BatchLinearizer(const Scene& scene, const FormulationSettings& settings,
                                 int threads, const LinearizeSettings& linearize_settings)
    : scene_(scene) {
  if (threads < 1)
    throw std::invalid_argument("BatchLinearizer: threads must be >= 1 (got " +
                                std::to_string(threads) + ")");
  linearizers_.reserve(threads);
  for (int t = 0; t < threads; ++t)
    linearizers_.push_back(std::make_unique<Linearizer>(scene, settings, linearize_settings));
}

BatchLinearizer::~BatchLinearizer() = default;

std::vector<Linearization> BatchLinearizer::Run(const std::vector<LinearizationPoint>& points,
                                                GradientMode mode, GradientMethod method) {
  for (size_t i = 0; i < points.size(); ++i) {
    CheckVector(points[i].q, scene_.nq, "q", i);
    CheckVector(points[i].u, scene_.nq_a, "u", i);
  }
  std::vector<Linearization> results(points.size());
  const size_t thread_count = linearizers_.size();
  // Worker t computes items t, t + T, t + 2T, …: a fixed assignment, and each item is written
  // to its own slot of `results` (no sharing between workers).
  auto work = [&](size_t t) {
    for (size_t i = t; i < points.size(); i += thread_count)
      results[i] = LinearizeOne(linearizers_[t].get(), points[i], mode, method);
  };
  const size_t workers = std::min(thread_count, points.size());
  std::vector<std::thread> pool;
  pool.reserve(workers > 0 ? workers - 1 : 0);
  try {
    for (size_t t = 1; t < workers; ++t) pool.emplace_back(work, t);
  } catch (...) {  // a thread could not be started: finish the started ones, then report
    for (std::thread& thread : pool) thread.join();
    throw;
  }
  if (workers > 0) work(0);  // the calling thread is worker 0
  for (std::thread& thread : pool) thread.join();
  return results;
}

std::vector<Linearization> LinearizeBatch(const Scene& scene, const FormulationSettings& settings,
                                          const std::vector<LinearizationPoint>& points,
                                          GradientMode mode, GradientMethod method, int threads,
                                          const LinearizeSettings& linearize_settings) {
  BatchLinearizer batch(scene, settings, threads, linearize_settings);
  return batch.Run(points, mode, method);
}

}  // namespace quasidyn
