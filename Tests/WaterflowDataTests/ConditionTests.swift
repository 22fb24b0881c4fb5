import Testing
import WaterflowData

@Suite struct ConditionTests {
  static let data = ItemData(values: [
    "isLiked": true, "isNew": false, "type": "video", "likes": 12345, "zero": 0, "empty": "",
    "tags": ["a", "b"], "none": [], "user": ["nickname": "小鹿", "level": 3],
    "price": "1,299.00", "text": "tall",
  ])

  static func holds(_ source: String) -> Bool {
    switch Condition.parse(source) {
    case .success(let c): return c.evaluate(data)
    case .failure(let e): Issue.record("\(source): \(e.message)"); return false
    }
  }

  @Test(arguments: [
    // Truth: present and not null, false, 0, empty text or empty list.
    ("{isLiked}", true), ("{isNew}", false), ("{zero}", false), ("{empty}", false),
    ("{tags}", true), ("{none}", false), ("{missing}", false), ("{user}", true),
    ("{user.nickname}", true), ("{tags[1]}", true), ("{tags[2]}", false),
    // Not, and, or, parentheses, precedence (&& before ||).
    ("!{isLiked}", false), ("!{isNew}", true), ("!!{isLiked}", true),
    ("{isLiked} && {isNew}", false), ("{isLiked} || {isNew}", true),
    ("{isNew} && {isLiked} || {type}", true), ("{isNew} && ({isLiked} || {type})", false),
    // Texts.
    ("{type} == 'video'", true), ("{type} == \"video\"", true), ("{type} != 'video'", false),
    ("{type} == 'photo'", false), ("{missing} == 'x'", false), ("{missing} != 'x'", true),
    ("{missing} == null", true), ("{type} == null", false), ("{isLiked} == true", true),
    ("{isNew} == false", true), ("'video' == {type}", true),
    // Numbers, texts with grouping read as numbers.
    ("{likes} > 10000", true), ("{likes} >= 12345", true), ("{likes} < 12345", false),
    ("{likes} <= 12345", true), ("{likes} == 12345.0", true), ("{likes} != 12345", false),
    ("{price} > 1000", true), ("{user.level} >= 3", true), ("{missing} < 5", false),
    ("{text} > 1", false), ("{likes} > {user.level}", true),
  ])
  func evaluates(source: String, expected: Bool) {
    #expect(Self.holds(source) == expected, "\(source)")
  }

  @Test(arguments: [
    ("", 1, "ends where a {field} or a value should be"),
    ("{type} == video", 11, "\"video\" is neither a {field} nor a value"),
    ("{type} = 'video'", 8, "unexpected \"= 'video'\" (compare with ==)"),
    ("{a} & {b}", 5, "unexpected \"& {b}\" (write && or ||)"),
    ("{a} {b}", 5, "unexpected \"{b}\" (join tests with && or ||)"),
    ("({a} || {b}", 1, "\"(\" is not closed"),
    ("{a", 1, "\"{\" is not closed"),
    ("{tags[x]}", 7, "expected a list index such as [0]"),
    ("'video'", 1, "a condition tests a field"),
    ("1 == 2", 1, "compares two values and no field"),
    ("{a} > 'x'", 7, "> compares numbers, not 'x'"),
    ("{a} == 'x", 8, "the text starting here is not closed"),
  ])
  func refusesWithTheColumn(source: String, column: Int, message: String) {
    guard case .failure(let e) = Condition.parse(source) else {
      Issue.record("\(source) parsed")
      return
    }
    #expect(e.column == column, "\(source): \(e.message)")
    #expect(e.message.hasPrefix(message), "\(source): \(e.message)")
  }

  @Test func namesTheFieldsItReads_AndThoseReadAsNumbers() throws {
    let c = try Condition.parse("{a} && ({b.c} > 3 || {d} == 'x') && {e} != 2").get()
    #expect(c.fields.map(\.source) == ["a", "b.c", "d", "e"])
    #expect(c.numberFields.map(\.source) == ["b.c", "e"])
  }

  @Test func printsAsItParses() throws {
    for source in ["!{a} && ({b} || {c} >= 2)", "{t} == 'video' || {n} != null"] {
      let c = try Condition.parse(source).get()
      #expect(try Condition.parse(c.description).get() == c, "\(c)")
    }
  }
}
