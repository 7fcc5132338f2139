#include "progress_bar.h"

#include <algorithm>
#include <iomanip>
#include <stdexcept>

namespace quasidyn::cli {

ProgressBar::ProgressBar(std::ostream& out, std::string label, int total, std::string unit,
                         int max_redraws, int width)
    : out_(out),
      label_(std::move(label)),
      unit_(std::move(unit)),
      total_(total),
      max_redraws_(max_redraws),
      width_(width) {
  if (total < 0) throw std::invalid_argument("progress bar total must be >= 0");
  if (max_redraws < 1) throw std::invalid_argument("progress bar max_redraws must be >= 1");
  if (width < 1) throw std::invalid_argument("progress bar width must be >= 1");
}

void ProgressBar::Update(int done) {
  if (finished_) return;
  done = std::clamp(done, 0, total_);
  last_done_ = done;
  // Buckets 0 … max_redraws − 2 here and the last redraw in Finish(): at most max_redraws.
  const int bucket = total_ == 0
                         ? max_redraws_
                         : static_cast<int>(static_cast<long long>(done) * max_redraws_ / total_);
  if (bucket <= last_bucket_ || bucket >= max_redraws_ - 1) return;
  last_bucket_ = bucket;
  Draw(done);
}

void ProgressBar::Finish() {
  if (finished_) return;
  finished_ = true;
  if (last_done_ != last_drawn_) Draw(last_done_);
  out_ << "\n" << std::flush;
}

void ProgressBar::Draw(int done) {
  const double fraction = total_ == 0 ? 1.0 : static_cast<double>(done) / total_;
  const int filled = static_cast<int>(fraction * width_);
  out_ << "\r" << label_ << " [" << std::string(filled, '#') << std::string(width_ - filled, '-')
       << "] " << std::setw(3) << static_cast<int>(fraction * 100.0) << "%  " << done << "/"
       << total_ << " " << unit_ << std::flush;
  ++redraws_;
  last_drawn_ = done;
}

}  // namespace quasidyn::cli
