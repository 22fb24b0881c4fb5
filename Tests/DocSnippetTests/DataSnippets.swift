// WaterflowData.docc, the landing page: nested data, a formatted field and a condition.
import Testing
import WaterflowData

@Suite struct DataSnippetTests {
  @Test func nestedDataFormatsAndConditions() {
    // doc: data begin
    let data = ItemData(values: [
      "user": ["nickname": "小鹿"], "interact": ["liked": true, "likedCount": 12345],
    ])
    let likes = FieldText("{interact.likedCount|compact}")
    let shown = likes.resolve(in: data, index: 0, formatting: DataFormatting(locale: "zh-Hans"))  // "1.2万"
    let liked: Condition = "{interact.liked} && {interact.likedCount} > 10000"
    let isPopular = liked.evaluate(data)  // true
    // doc: data end
    #expect(shown == "1.2万")
    #expect(isPopular)
  }
}
