import Testing
import WaterflowData

@Suite struct DataFormatTests {
  static func text(_ template: String, _ value: DataValue, locale: String = "en", now: String? = nil)
    -> String?
  {
    let data = ItemData(values: ["v": value])
    let formatting = DataFormatting(
      locale: locale, now: now.flatMap { DataFormat.seconds(ofDate: $0) })
    return FieldText(template).resolve(in: data, index: 0, formatting: formatting)
  }

  @Test(arguments: [
    // Compact counts: one decimal at most, the unit of the locale.
    ("{v|compact}", 999, "en", "999"), ("{v|compact}", 12345, "en", "12.3k"),
    ("{v|compact}", 1000, "en", "1k"), ("{v|compact}", 1_234_567, "en", "1.2M"),
    ("{v|compact}", 999_960, "en", "1M"), ("{v|compact}", -1500, "en", "-1.5k"),
    ("{v|compact}", 9999, "zh-Hans", "9999"), ("{v|compact}", 12345, "zh-Hans", "1.2万"),
    ("{v|compact}", 123_456_789, "zh-Hans", "1.2亿"), ("{v|compact}", 99_999_999, "zh-Hans", "1亿"),
    ("{v|compact}", 12345, "zh-Hant", "1.2萬"), ("{v|compact}", 12345, "ja", "1.2万"),
    ("{v|compact}", 12345, "ar", "١٢٫٣\u{00A0}ألف"),
    // Grouping, fixed decimals, percentages.
    ("{v|grouped}", 1_234_567.5, "en", "1,234,568"), ("{v|grouped}", 1234, "de", "1.234"),
    ("{v|grouped}", 1234, "ar", "١٬٢٣٤"), ("{v|fixed:2}", 3.14159, "en", "3.14"),
    ("{v|fixed:2}", 2.5, "fr", "2,50"), ("{v|fixed:0}", 2.5, "en", "3"),
    ("{v|percent}", 0.256, "en", "26%"), ("{v|percent:1}", 0.256, "en", "25.6%"),
    ("{v|percent}", 0.256, "fr", "26\u{00A0}%"), ("{v|percent}", 0.5, "ar", "٥٠٪"),
    // A price in parts.
    ("¥{v|integer}", 1299.5, "zh-Hans", "¥1,299"), ("{v|fraction}", 1299.5, "en", ".50"),
    ("{v|fraction}", 129, "en", ".00"), ("{v|fraction:1}", 0.25, "de", ",3"),
    ("{v|integer}", 129.99, "en", "129"),
  ] as [(String, Double, String, String)])
  func formatsNumbers(template: String, value: Double, locale: String, expected: String) {
    let written: String = value == value.rounded() ? String(Int(value)) : String(value)
    let v = DataValue.number(written)
    #expect(Self.text(template, v, locale: locale) == expected, "\(template) \(value) \(locale)")
  }

  @Test func numbersGivenAsTextsAreFormattedToo_OtherValuesAreNot() {
    #expect(Self.text("{v|compact}", "12,345") == "12.3k")
    #expect(Self.text("{v|compact}", "tall") == nil)
    #expect(Self.text("{v|compact}", true) == nil)
  }

  @Test(arguments: [
    ("2026-11-27T08:59:30Z", "en", "just now"), ("2026-11-27T08:59:00Z", "en", "1 minute ago"),
    ("2026-11-27T08:15:00Z", "en", "45 minutes ago"), ("2026-11-27T06:00:00Z", "en", "3 hours ago"),
    ("2026-11-24T09:00:00Z", "en", "3 days ago"), ("2026-11-24T09:00:00Z", "zh-Hans", "3天前"),
    ("2026-11-27T07:00:00Z", "zh-Hant", "2小時前"), ("2026-11-24T09:00:00Z", "ja", "3日前"),
    ("2026-11-24T09:00:00Z", "ko", "3일 전"), ("2026-11-24T09:00:00Z", "ar", "قبل ٣ أيام"),
    ("2026-11-25T09:00:00Z", "ar", "قبل يومين"), ("2026-11-26T09:00:00Z", "ar", "قبل يوم"),
    ("2026-11-27T17:00:00+08:00", "en", "just now"), ("2026-11-10", "en", "Nov 10"),
    ("2025-11-10", "en", "Nov 10, 2025"), ("2026-11-10", "zh-Hans", "11月10日"),
    ("2026-11-10", "de", "2026-11-10"),
  ])
  func relativeDatesAgainstAFixedNow(date: String, locale: String, expected: String) {
    #expect(
      Self.text("{v|relative}", .string(date), locale: locale, now: "2026-11-27T09:00:00Z")
        == expected, "\(date) \(locale)")
  }

  @Test func unixTimesInSecondsOrMilliseconds() {
    let now = "2026-11-27T09:00:00Z"
    let seconds = DataFormat.seconds(ofDate: "2026-11-24T09:00:00Z")!
    #expect(Self.text("{v|relative}", .number(String(Int(seconds))), now: now) == "3 days ago")
    #expect(Self.text("{v|relative}", .number(String(Int(seconds) * 1000)), now: now) == "3 days ago")
    #expect(Self.text("{v|relative}", "yesterday", now: now) == nil)
    #expect(DataFormat.seconds(ofDate: "2026-13-01") == nil)
    #expect(DataFormat.seconds(ofDate: "1970-01-02") == 86_400)
  }

  @Test func unknownFormatsAndBadPathsAreRefusedWithTheirColumn() {
    guard case .failure(let e) = FieldText.parse("¥{price|money}") else {
      Issue.record("parsed")
      return
    }
    #expect(e.message.hasPrefix("unknown format \"money\" in {price|money} (formats: compact"))
    guard case .failure(let slip) = FieldText.parse("{likes|compakt}") else {
      Issue.record("parsed")
      return
    }
    #expect(slip.message.hasPrefix("unknown format \"compakt\" (did you mean \"compact\"?) in {likes|compakt}"))
    #expect(e.column == 2)
    guard case .failure(let p) = FieldText.parse("tags: {tags[x]}") else {
      Issue.record("parsed")
      return
    }
    #expect(p.message.hasPrefix("expected a list index such as [0], found \"x\""), "\(p.message)")
    #expect(p.column == 7)
  }
}
