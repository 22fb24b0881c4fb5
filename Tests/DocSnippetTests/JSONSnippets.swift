// WaterflowJSON.docc, "Reading JSON": a format of your own on the one reader, compiled and run
// here, with the message the article shows.
import Testing
import WaterflowTestSupport
// doc: json-reader begin
import WaterflowJSON

struct Viewport { var width = 375.0, height = 667.0 }
enum ViewportKey: String, CaseIterable, Sendable { case width, height }
let viewportKeys = JSONKeys<ViewportKey>()

func readViewport(_ text: String, file: String) throws(JSONInputError) -> Viewport {
  try JSONDocument(Array(text.utf8), file: file).read { (reader) throws(JSONInputError) in
    var viewport = Viewport()
    try reader.beginObject()
    while let key = try reader.nextKey(viewportKeys) {
      switch key {
      case .width: viewport.width = try reader.number()
      case .height: viewport.height = try reader.number()
      }
    }
    return viewport
  }
}
// doc: json-reader end

@Suite struct JSONSnippetTests {
  @Test func aViewport_IsReadAndItsMistakesNamed() throws {
    #expect(try readViewport(#"{"width": 390}"#, file: "a.json").width == 390)
    // doc: json-reader-use begin
    var messages: [String] = []
    for text in [#"{"widht": 390}"#, #"{"width": "wide"}"#, #"{"width": 390,}"#] {
      do { _ = try readViewport(text, file: "v.json") } catch { messages.append("\(error)") }
    }
    print(messages.joined(separator: "\n"))
    // doc: json-reader-use end
    #expect(messages.count == 3)
    let article = try String(
      contentsOfFile: packageRoot + "/Sources/WaterflowJSON/WaterflowJSON.docc/Articles/ReadingJSON.md",
      encoding: .utf8)
    #expect(article.contains("```\n" + messages.joined(separator: "\n") + "\n```"), "the article shows other output")
  }
}
