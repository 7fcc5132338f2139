#pragma once
// A one-line text progress bar for long commands, drawn on a stream (stderr):
//
//   simulate arm_cubes [##########----------]  50%  350/700 steps
//
// Each redraw starts with a carriage return and rewrites the line. At most `max_redraws`
// redraws happen (one each time the fraction crosses the next multiple of 1/max_redraws),
// so a redirected stderr gets a few hundred bytes, not one line per step. Finish() draws
// the final state and ends the line with a newline.

#include <ostream>
#include <string>

namespace quasidyn::cli {

class ProgressBar {
 public:
  // total: the number of units (steps) for 100 %, >= 0; unit: their name ("steps");
  // max_redraws >= 1; width: the bar's length in characters, >= 1.
  ProgressBar(std::ostream& out, std::string label, int total, std::string unit,
              int max_redraws = 20, int width = 30);

  // Reports `done` units of `total` (clamped to [0, total]); redraws only when the bar moved
  // to a new 1/max_redraws bucket.
  void Update(int done);
  // Draws the final state (unless already on screen) and ends the line; once.
  void Finish();

  int redraws() const { return redraws_; }

 private:
  void Draw(int done);

  std::ostream& out_;
  std::string label_, unit_;
  int total_, max_redraws_, width_;
  int last_bucket_ = -1;
  int last_done_ = 0;
  int last_drawn_ = -1;
  int redraws_ = 0;
  bool finished_ = false;
};

}  // namespace quasidyn::cli
