import Testing
import WaterflowData

@Suite struct DataRowsTests {
  /// Rows of every kind of value, with texts and lists long enough that their counts take more
  /// than one byte, and a row made wholly of keys new to the set.
  static let rows: [ItemData] = [
    ItemData(values: [
      "id": "e33c28ad", "title": "海边日落🌅 this view is unreal", "liked": true, "muted": false,
      "gone": nil, "likes": 23123, "ratio": 0.75,
      "cover": ["url": "Photos/p01.jpg", "width": 540, "height": 720],
      "tags": [["name": "旅行"], ["name": "日落"]], "empty": [], "nothing": [:], "blank": "",
    ]),
    ItemData(values: [
      "title": .string(String(repeating: "长", count: 300)),
      "many": .array((0..<200).map { .number("\($0)") }),
      "deep": ["a": ["b": ["c": ["d": "bottom"]]]],
    ]),
    ItemData(values: Dictionary(uniqueKeysWithValues: (0..<300).map { ("k\($0)", DataValue.number("\($0)")) })),
    ItemData(),
  ]

  @Test func everyRowReadsBackAsItWasPacked() {
    var builder = DataRows.Builder(folder: "Feeds")
    for row in Self.rows { builder.append(row) }
    #expect(builder.count == Self.rows.count)
    let packed = builder.build()
    #expect(packed.count == Self.rows.count)
    for (row, original) in zip(packed, Self.rows) {
      #expect(row.object == original.object)
      #expect(row.folder == "Feeds")
    }
    #expect(packed[0]["cover.width"] == "540")
    #expect(packed[0]["tags[1].name"] == "日落")
    #expect(packed[0][field: "gone"] == .null)
    #expect(packed[2]["k299"] == "299")
  }

  @Test func oneFieldIsReadWithoutTheRest() {
    var builder = DataRows.Builder(folder: "")
    for row in Self.rows { builder.append(row) }
    let packed = builder.build()
    #expect(packed.value(ofField: "likes", inRow: 0) == .number("23123"))
    #expect(packed.value(ofField: "tags", inRow: 0) == [["name": "旅行"], ["name": "日落"]])
    #expect(packed.value(ofField: "deep", inRow: 1) == ["a": ["b": ["c": ["d": "bottom"]]]])
    // A key the set knows, but not in this row; and one no row has.
    #expect(packed.value(ofField: "likes", inRow: 1) == nil)
    #expect(packed.value(ofField: "nowhere", inRow: 0) == nil)
    #expect(packed.value(ofField: "k150", inRow: 2) == .number("150"))
  }

  @Test func rowsSpanManyPiecesAndKeepTheirOrder() {
    // About 3 MB of rows: several pieces, with rows at each piece's edge.
    var builder = DataRows.Builder(folder: "")
    let count = 12_000
    for i in 0..<count {
      builder.append(
        ItemData(values: ["n": .number("\(i)"), "text": .string(String(repeating: "x", count: 200 + i % 97))]))
    }
    let packed = builder.build()
    #expect(packed.count == count)
    #expect(packed.packedByteCount > 2 << 20)
    let wrong = (0..<count).filter { i in
      packed[i]["n"] != "\(i)" || packed[i]["text"]?.utf8.count != 200 + i % 97
    }
    #expect(wrong.isEmpty)
  }

  @Test func aPackedRowIsSmallerThanItsJSON() {
    var builder = DataRows.Builder(folder: "")
    for _ in 0..<100 { builder.append(Self.rows[0]) }
    // {"id": "e33c28ad", "title": ... } as an API writes it is about 330 bytes.
    #expect(builder.build().packedByteCount / 100 < 200)
  }
}
