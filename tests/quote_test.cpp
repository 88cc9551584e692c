// quote_value and quote_text, the one way a message shows a bad value: bounded in length whatever the
// value's size, without recursion whatever its depth, and with bytes that are not UTF-8 shown as \xNN.
#include "quote.hpp"

#include <gtest/gtest.h>

#include <string>

namespace ladder {
namespace {

using nlohmann::json;

json nested_arrays(int depth) { return json::parse(std::string(depth, '[') + std::string(depth, ']')); }

TEST(Quote, ANumberAndAShortStringAreShownWhole) {
  EXPECT_EQ(quote_value(json(5)), "5");
  EXPECT_EQ(quote_value(json(2.5)), "2.5");
  EXPECT_EQ(quote_value(json(true)), "true");
  EXPECT_EQ(quote_value(json(nullptr)), "null");
  EXPECT_EQ(quote_value(json("abc")), "\"abc\"");
}

TEST(Quote, AValueNestedAMillionDeepIsNamedWithoutOverflowingTheStack) {
  const json deep = nested_arrays(1'000'000);
  const std::string shown = quote_value(deep);
  EXPECT_EQ(shown.rfind("an array of 1 element: [[[", 0), 0u) << shown;
  EXPECT_EQ(shown.substr(shown.size() - 3), "…") << shown;
  EXPECT_LT(shown.size(), quote_limit + 40);
}

TEST(Quote, ASmallStructureIsShownWholeAndClosed) {
  EXPECT_EQ(quote_value(json::parse(R"([1, [2, 3], {"a": "b"}])")),
            "an array of 3 elements: [1, [2, 3], {\"a\": \"b\"}]");
  EXPECT_EQ(quote_value(json::object()), "an object of 0 elements: {}");
}

TEST(Quote, AHugeStringIsCutAndItsLengthNamed) {
  const std::string big(2'000'000, 'a');
  const std::string shown = quote_value(json(big));
  EXPECT_EQ(shown, "\"" + std::string(quote_limit, 'a') + "…\" (2000000 characters)");
  EXPECT_EQ(quote_text(big, 3), "aaa… (2000000 characters)");
}

TEST(Quote, AWideArrayIsCutNearTheLimit) {
  const json wide = json(std::vector<int>(1'000'000, 7));
  const std::string shown = quote_value(wide);
  EXPECT_EQ(shown.rfind("an array of 1000000 elements: [7, 7", 0), 0u);
  EXPECT_LT(shown.size(), 2 * quote_limit);
}

TEST(Quote, BytesThatAreNotUtf8AreShownAsHexAndValidOnesKept) {
  EXPECT_EQ(quote_text("r\xe9sultats"), "r\\xe9sultats");
  EXPECT_EQ(quote_text("r\xc3\xa9sultats"), "r\xc3\xa9sultats");
  EXPECT_EQ(quote_text("a\nb\x01"), "a\\nb\\x01");
  EXPECT_EQ(quote_text("\xf0\x9f\x98\x80"), "\xf0\x9f\x98\x80");  // an emoji, four bytes
  EXPECT_EQ(quote_text("\xf0\x9f\x98"), "\\xf0\\x9f\\x98");       // cut short
}

TEST(Quote, DumpJsonReplacesBytesThatAreNotUtf8InsteadOfThrowing) {
  const json path = {{"out", "run-r\xe9s"}};
  EXPECT_THROW((void)path.dump(), json::type_error);
  EXPECT_EQ(dump_json(path), "{\"out\":\"run-r\xef\xbf\xbds\"}");
}

TEST(Quote, TextForAUtf8FileHasEachByteThatIsNotUtf8Replaced) {
  EXPECT_EQ(utf8_replaced("caf\xe9 and r\xc3\xa9sum\xc3\xa9"), "caf\xef\xbf\xbd and r\xc3\xa9sum\xc3\xa9");
  EXPECT_EQ(utf8_replaced("\xe2\x82"), "\xef\xbf\xbd\xef\xbf\xbd") << "a sequence cut short: each byte";
  EXPECT_EQ(utf8_replaced(""), "");
}

}  // namespace
}  // namespace ladder
