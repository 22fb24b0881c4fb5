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
