import Testing
import WaterflowCells

@Suite struct IconShapeTests {
  static let required = [
    "heart", "heart.fill", "star", "star.fill", "eye", "comment", "play", "cart", "bookmark",
    "bookmark.fill",
  ]

  static func points(_ shape: IconShape) -> [(Double, Double)] {
    shape.parts.flatMap(\.segments).flatMap { segment -> [(Double, Double)] in
      switch segment {
      case .move(let x, let y), .line(let x, let y): [(x, y)]
      case .curve(let x1, let y1, let x2, let y2, let x, let y): [(x1, y1), (x2, y2), (x, y)]
      case .close: []
      }
    }
  }
}

extension IconShapeTests {
  @Test func requiredIcons_Resolve() {
    for name in Self.required { #expect(IconShape(named: name) != nil, "\(name)") }
    #expect(IconShape(named: "hart") == nil)
    #expect(IconShape.names == IconShape.names.sorted())
    #expect(Set(Self.required).isSubset(of: IconShape.names))
  }

  @Test(arguments: IconShape.names)
  func everyPart_StartsWithAMove_AndStaysInTheBox(name: String) throws {
    let shape = try #require(IconShape(named: name))
    #expect(!shape.parts.isEmpty)
    for part in shape.parts {
      guard case .move = part.segments.first else {
        Issue.record("\(name): a part does not start with a move")
        continue
      }
      if case .stroke(let width) = part.paint { #expect(width > 0) }
    }
    for (x, y) in Self.points(shape) {
      #expect((0...24).contains(x) && (0...24).contains(y), "\(name): (\(x), \(y))")
    }
  }

  @Test func heartAndStar_AreSymmetricAboutTheMiddle() throws {
    for name in ["heart.fill", "star.fill"] {
      let points = Self.points(try #require(IconShape(named: name)))
      let xs = points.map(\.0)
      #expect(abs((xs.min()! + xs.max()!) / 2 - 12) < 0.05, "\(name)")
      // Every point has its mirror image.
      for (x, y) in points {
        #expect(points.contains { abs($0.0 - (24 - x)) < 0.02 && abs($0.1 - y) < 0.02 }, "\(name) (\(x), \(y))")
      }
    }
  }
}
