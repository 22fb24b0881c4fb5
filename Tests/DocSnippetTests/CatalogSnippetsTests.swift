import Foundation
import Testing
import WaterflowTestSupport

/// Every Swift example in the DocC catalogs (`Sources/*/*.docc`) is code this target compiles,
/// and most of it runs: each ```swift block of an article must be, line for line, a region of a
/// file here, marked `// doc: NAME begin` … `// doc: NAME end`. A region may come in parts (the
/// imports at the top of a file, types at file scope, statements inside a test); its text is
/// the parts in order, each part shifted left by the indentation of its first line that is not
/// empty.
@Suite struct CatalogSnippetsTests {
  static let snippetFolder = packageRoot + "/Tests/DocSnippetTests"

  /// The ```swift blocks of every catalog's articles and pages, with where each one is.
  static func catalogBlocks() throws -> [(place: String, lines: [Substring])] {
    var blocks: [(String, [Substring])] = []
    let sources = packageRoot + "/Sources"
    for module in try FileManager.default.contentsOfDirectory(atPath: sources).sorted() {
      let catalog = "\(sources)/\(module)/\(module).docc"
      guard let files = FileManager.default.enumerator(atPath: catalog)?.allObjects as? [String] else {
        continue
      }
      for file in files.sorted() where file.hasSuffix(".md") {
        let lines = try String(contentsOfFile: "\(catalog)/\(file)", encoding: .utf8)
          .split(separator: "\n", omittingEmptySubsequences: false)
        var i = 0
        while i < lines.count {
          if lines[i] == "```swift" {
            let end = try #require(
              lines[(i + 1)...].firstIndex(of: "```"), "\(module)/\(file): an unclosed ```swift block")
            blocks.append(("\(module).docc/\(file):\(i + 1)", Array(lines[(i + 1)..<end])))
            i = end
          }
          i += 1
        }
      }
    }
    return blocks
  }

  /// The marked regions of the files here, by name.
  static func regions() throws -> [String: [Substring]] {
    var regions: [String: [Substring]] = [:]
    let files = FileManager.default.enumerator(atPath: snippetFolder)?.allObjects as? [String] ?? []
    for file in files.sorted() where file.hasSuffix(".swift") {
      let lines = try String(contentsOfFile: "\(snippetFolder)/\(file)", encoding: .utf8)
        .split(separator: "\n", omittingEmptySubsequences: false)
      var open: (name: String, part: [Substring])?
      for line in lines {
        let marker = line.drop { $0 == " " }
        if marker.hasPrefix("// doc: "), marker.hasSuffix(" begin") {
          open = (String(marker.dropFirst(8).dropLast(6)), [])
        } else if let region = open, marker == "// doc: \(region.name) end" {
          let indent = region.part.first { !$0.isEmpty }.map { $0.prefix { $0 == " " }.count } ?? 0
          regions[region.name, default: []] += region.part.map {
            $0.dropFirst(min(indent, $0.prefix { $0 == " " }.count))
          }
          open = nil
        } else if open != nil {
          open!.part.append(line)
        }
      }
      #expect(open == nil, "\(file): region \(open?.name ?? "") is not closed")
    }
    return regions
  }

  @Test func everySwiftBlockOfTheCatalogs_IsCodeCompiledHere() throws {
    let blocks = try Self.catalogBlocks()
    let regions = try Self.regions()
    #expect(blocks.count >= 9, "the catalogs' Swift examples were not found: \(blocks.map(\.place))")
    let texts = Set(regions.values.map { $0.joined(separator: "\n") })
    for block in blocks {
      let isRegion = texts.contains(block.lines.joined(separator: "\n"))
      #expect(
        isRegion,
        """
        \(block.place): this ```swift block is no region of Tests/DocSnippetTests; copy it into a \
        file there between `// doc: NAME begin` and `// doc: NAME end`, so that it compiles
        """)
    }
    for (name, lines) in regions.sorted(by: { $0.key < $1.key }) {
      let isShown = blocks.contains { $0.lines == lines }
      #expect(isShown, "region \(name) is shown by no article as it is")
    }
  }

  /// The manifest the snapshot-testing article shows is one SwiftPM evaluates.
  @Test func theConsumerManifest_IsAValidPackage() throws {
    let dir = try makeTemporaryDirectory(prefix: "doc-consumer")
    defer { try? FileManager.default.removeItem(atPath: dir) }
    try FileManager.default.copyItem(
      atPath: Self.snippetFolder + "/Consumer/Package.swift", toPath: dir + "/Package.swift")
    let run = try runProgram(atPath: "/usr/bin/env", ["swift", "package", "dump-package"], in: dir)
    #expect(run.status == 0, "\(run.output)")
    #expect(run.stdout.contains(#""name" : "FeedTests""#), "\(run.stdout)")
  }
}
