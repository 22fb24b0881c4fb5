import Testing
import WaterflowData

@Suite struct DataPathTests {
  @Test func nestedPathsReadObjectsAndLists() {
    let data = ItemData(values: [
      "cover": ["url": "a.jpg", "width": 540, "height": 720],
      "user": ["nickname": "小鹿"], "tags": ["旅行", "日落"], "liked": false, "gone": nil,
    ])
    #expect(data["cover.width"] == "540")
    #expect(data["user.nickname"] == "小鹿")
    #expect(data["tags[1]"] == "日落")
    #expect(data["tags[2]"] == nil)
    #expect(data["liked"] == "false")
    #expect(data["gone"] == nil)
    #expect(data["cover"] == nil)  // an object has no text of its own
  }
}

@Suite struct DataPathParsingTests {
  @Test func stepsOfAPath() throws {
    #expect(try DataPath.parse("a.b[2].c").get().steps == [.key("a"), .key("b"), .index(2), .key("c")])
    #expect(try DataPath.parse("m[0][1]").get().steps == [.key("m"), .index(0), .index(1)])
  }

  @Test(arguments: [
    (".a", 1, "a \".\" with no field name before it"), ("a.", 2, "ends in \".\""),
    ("a..b", 3, "a \".\" with no field name"), ("[0]", 1, "a \"[\" with no field before it"),
    ("a[", 2, "\"[\" is not closed"), ("a[]", 3, "\"[]\" gives no index"),
    ("a]", 2, "\"]\" has no \"[\""), ("a[0]b", 5, "expected \".\" or \"[\" after \"]\""),
  ])
  func refused(source: String, column: Int, message: String) {
    guard case .failure(let e) = DataPath.parse(source) else {
      Issue.record("\(source) parsed")
      return
    }
    #expect(e.message.hasPrefix(message), "\(source): \(e.message)")
    #expect(e.column == column, "\(source): \(e.message)")
  }

  @Test func flattenedNamesWithDotsStillReadAsOneField() {
    let data = ItemData(["cover.width": "540"])
    #expect(data["cover.width"] == "540")
    #expect(data.number("cover.width") == 540)
  }

  @Test func textsAnywhereCanBeReplaced_AndLeavesAreListedByPath() {
    var data = ItemData(values: ["user": ["nickname": "@name", "level": 3], "tags": ["@t", "x"]])
    data.replaceTexts { path, text in text.hasPrefix("@") ? "<\(path)>" : nil }
    #expect(data["user.nickname"] == "<user.nickname>")
    #expect(data["tags[0]"] == "<tags[0]>")
    #expect(data["tags[1]"] == "x")
    #expect(data.sortedFields.map(\.name) == ["tags[0]", "tags[1]", "user.level", "user.nickname"])
  }

  @Test func choicesPickATextByCondition() throws {
    let heart = FieldText(choosing: "{isLiked}", then: "heart.fill", else: "heart")
    #expect(heart.resolve(in: ItemData(values: ["isLiked": true]), index: 0) == "heart.fill")
    #expect(heart.resolve(in: ItemData(values: ["isLiked": false]), index: 0) == "heart")
    #expect(heart.reads.map(\.isGuarded) == [true])
    #expect(heart.fields.isEmpty)
  }
}
