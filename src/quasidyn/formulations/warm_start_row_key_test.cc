// PreviousRowKeys (warm_start_row_key.h): the same keys in the same order are told apart from
// the same number of keys in another order, each key finds the row it had, a key no previous
// row had finds none, and a Remember replaces the rows a Find searches.
#include "quasidyn/formulations/warm_start_row_key.h"

#include <gtest/gtest.h>

#include <vector>

namespace quasidyn {
namespace {

using Keys = std::vector<PreviousRowKeys::RowKey>;

TEST(PreviousRowKeysTest, FindsEachKeysRowAndTellsTheSameOrderFromAnother) {
  PreviousRowKeys previous;
  EXPECT_EQ(previous.Find(7), -1);  // nothing remembered
  Keys first = {50, 30, 90, 10};
  previous.Remember(&first);
  EXPECT_EQ(previous.size(), 4);
  EXPECT_TRUE(previous.SameAs({50, 30, 90, 10}));
  EXPECT_FALSE(previous.SameAs({30, 50, 90, 10}));  // as many rows, two swapped
  EXPECT_FALSE(previous.SameAs({50, 30, 90}));
  EXPECT_EQ(previous.Find(50), 0);
  EXPECT_EQ(previous.Find(30), 1);
  EXPECT_EQ(previous.Find(90), 2);
  EXPECT_EQ(previous.Find(10), 3);
  EXPECT_EQ(previous.Find(40), -1);   // between two keys
  EXPECT_EQ(previous.Find(100), -1);  // above all

  Keys second = {40, 50};  // a new step's rows: the sorted copy is made again
  previous.Remember(&second);
  EXPECT_EQ(previous.Find(40), 0);
  EXPECT_EQ(previous.Find(50), 1);
  EXPECT_EQ(previous.Find(30), -1);
  EXPECT_TRUE(previous.SameAs({40, 50}));

  previous.Clear();
  EXPECT_EQ(previous.size(), 0);
  EXPECT_EQ(previous.Find(40), -1);
}

}  // namespace
}  // namespace quasidyn
