#include <gtest/gtest.h>

#include "parse.hpp"
#include "registry.hpp"

namespace ladder {
namespace {

TEST(Sizes, AcceptsPlainScientificAndPowerForms) {
  EXPECT_EQ(parse_size("100000000"), 100000000);
  EXPECT_EQ(parse_size("1e8"), 100000000);
  EXPECT_EQ(parse_size("2.5e6"), 2500000);
  EXPECT_EQ(parse_size("2^27"), 134217728);
  EXPECT_EQ(parse_size("1"), 1);
  EXPECT_EQ(parse_size("2^62"), std::int64_t{1} << 62);
  EXPECT_EQ(parse_size("4611686018427387904"), std::int64_t{1} << 62);
  EXPECT_EQ(parse_size("10^3"), 1000);
}

std::string rejection(std::string_view text) {
  try {
    parse_size(text);
  } catch (const InputError& error) {
    return error.what();
  }
  return "accepted";
}

TEST(Sizes, RejectsWithTheTextAndTheAcceptedForms) {
  const std::string forms = "; n is a whole number from 1 to 2^62, written as 100000000, 1e8 or 2^27";
  EXPECT_EQ(rejection("0"), "n = '0' is less than 1" + forms);
  EXPECT_EQ(rejection("-5"), "n = '-5' is less than 1" + forms);
  EXPECT_EQ(rejection("1.5"), "n = '1.5' is not a whole number" + forms);
  EXPECT_EQ(rejection("abc"), "n = 'abc' is not a number" + forms);
  EXPECT_EQ(rejection(""), "n = '' is empty" + forms);
  EXPECT_EQ(rejection("1e8x"), "n = '1e8x' is not a number" + forms);
  EXPECT_EQ(rejection("2^63"), "n = '2^63' is larger than 2^62" + forms);
  EXPECT_EQ(rejection("1e19"), "n = '1e19' is larger than 2^62" + forms);
  EXPECT_EQ(rejection("4611686018427387905"), "n = '4611686018427387905' is larger than 2^62" + forms);
  EXPECT_EQ(rejection("99999999999999999999"), "n = '99999999999999999999' is larger than 2^62" + forms);
  EXPECT_EQ(rejection("inf"), "n = 'inf' is not a number" + forms);
  EXPECT_EQ(rejection("nan"), "n = 'nan' is not a number" + forms);
  EXPECT_EQ(rejection("2^x"), "n = '2^x' is not a number" + forms);
  EXPECT_EQ(rejection("1e400"), "n = '1e400' is larger than 2^62" + forms);
}

TEST(Sizes, ThreadsAreWholeNumbersFromOneToTheLimit) {
  EXPECT_EQ(parse_threads("1"), 1);
  EXPECT_EQ(parse_threads("16"), 16);
  for (const char* bad : {"0", "-1", "1.5", "two", "", "1025"})
    EXPECT_THROW(parse_threads(bad), InputError) << bad;
}

TEST(Sizes, RealsMustBeFinite) {
  EXPECT_EQ(parse_real("a", "-1.5"), -1.5);
  EXPECT_EQ(parse_real("b", "1e-3"), 1e-3);
  for (const char* bad : {"nan", "inf", "-inf", "x", "", "1.0.0"})
    EXPECT_THROW(parse_real("a", bad), InputError);
}

}  // namespace
}  // namespace ladder
