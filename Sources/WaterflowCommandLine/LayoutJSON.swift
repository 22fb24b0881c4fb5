import Foundation
import WaterflowJSON
import WaterflowScene

/// `layout --json`: a layout's frames, columns and items, as the layout file reader takes them
/// back.
package enum LayoutJSON {
  /// The layout as a layout file: `{"viewport": …, …, "frames": [` then one frame a line,
  /// streamed, so the frames are never held as text. It carries everything drawing needs
  /// (viewport, seed, texts, prices, images, identifiers), so loading it back as a layout file
  /// draws, traces and answers queries exactly as the scene did.
  package static func write(_ snapshot: LayoutSnapshot, of scene: Scene, to out: JSONWriter) {
    let computed = !snapshot.framesAreGiven
    var pairs: [(String, JSONText)] = [
      (
        "viewport",
        .object([
          ("width", JSONText(scene.viewport.width)), ("height", JSONText(scene.viewport.height)),
          ("scale", JSONText(scene.scale)),
        ])
      ),
      ("seed", JSONText(Int(scene.seed))),
      ("flow", .string(scene.layout.flow.rawValue)),
      ("direction", .string(scene.layout.direction.rawValue)),
    ]
    if scene.layout.origin == .bottom { pairs.append(("origin", .string("bottom"))) }
    if scene.buffer > 0 { pairs.append(("buffer", JSONText(scene.buffer))) }
    if scene.reuseOrder != .leaveFirst {
      pairs.append(("reuseOrder", .string(scene.reuseOrder.rawValue)))
    }
    if let orientation = scene.orientation {
      pairs.append(("orientation", .string(orientation.rawValue)))
    }
    if scene.isLoading { pairs.append(("loading", .bool(true))) }
    // What templates format and name items with, so the file draws and names them as the scene.
    if let formatting = scene.cells.values.first?.formatting {
      if formatting.locale != "en" { pairs.append(("locale", .string(formatting.locale))) }
      if let now = formatting.now { pairs.append(("now", JSONText(now))) }
    }
    if scene.identityField != "id" { pairs.append(("identity", .string(scene.identityField))) }
    if computed {
      pairs.append(("columns", JSONText(snapshot.columnCount)))
      pairs.append(("columnWidth", JSONText(snapshot.columnWidth)))
    }
    pairs.append(("contentSize", size(snapshot.contentSize)))
    // Stamps are not drawn (they stand for views of the app's own), but the frames flow round
    // them: a reader of the file needs them to place those views.
    let stamps = snapshot.sections.flatMap(\.stamps)
    if !stamps.isEmpty {
      pairs.append(("stamps", .array(stamps.map { rect($0, text: nil) })))
    }
    if let h = snapshot.header { pairs.append(("header", rect(h, text: scene.header?.text))) }
    if let f = snapshot.footer { pairs.append(("footer", rect(f, text: scene.footer?.text))) }
    if let e = snapshot.emptyView {
      pairs.append(("emptyView", rect(e, text: (scene.isLoading ? scene.loading : scene.empty).text)))
    }
    if snapshot.sections.count > 1 || snapshot.sections[0].header != nil
      || snapshot.sections[0].footer != nil
    {
      pairs.append(
        (
          "sections",
          .array(
            snapshot.sections.enumerated().map { i, s in
              var p: [(String, JSONText)] = [
                ("first", JSONText(s.items.lowerBound)),
                ("count", JSONText(s.items.count)),
              ]
              if computed {
                p.append(("columns", JSONText(s.columnCount)))
                p.append(("columnWidth", JSONText(s.columnWidth)))
              }
              let texts: (header: Supplement?, footer: Supplement?) =
                i < scene.sectionSupplements.count ? scene.sectionSupplements[i] : (nil, nil)
              if let h = s.header { p.append(("header", rect(h, text: texts.header?.text))) }
              if let f = s.footer { p.append(("footer", rect(f, text: texts.footer?.text))) }
              return .object(p)
            })
        ))
    }
    // The head is small: written as a value without its closing brace.
    out.write("{")
    for (i, (key, value)) in pairs.enumerated() {
      if i > 0 { out.write(", ") }
      out.write(quoting: key)
      out.write(": ")
      value.write(to: out, key: key, depth: 1)
    }
    if !scene.cells.isEmpty {
      out.write(", \"cells\": ")
      Scene.writeCells(scene.cells, to: out)
    }
    out.write(", \"frames\": [")
    var items = scene.sections.lazy.flatMap { list in (0..<list.count).lazy.map { list[$0] } }
      .makeIterator()
    for i in 0..<snapshot.count {
      let f = snapshot.frame(at: i)
      out.write(i == 0 ? "\n  {\"index\": " : ",\n  {\"index\": ")
      out.write(i)
      if computed {
        out.write(", \"column\": ")
        out.write(snapshot.column(at: i))
      }
      out.write(", \"x\": ")
      out.write(f.minX)
      out.write(", \"y\": ")
      out.write(f.minY)
      out.write(", \"width\": ")
      out.write(f.width)
      out.write(", \"height\": ")
      out.write(f.height)
      let span = snapshot.span(at: i)
      if computed && span > 1 {
        out.write(", \"span\": ")
        out.write(span)
      }
      let item = items.next()!
      if let price = item.price {
        out.write(", \"price\": ")
        out.write(quoting: price)
      }
      if let image = item.image {
        // Absolute, so the file works wherever it is saved (a layout file resolves a relative
        // path from its own folder, and stdout has none).
        out.write(", \"image\": ")
        out.write(quoting: Scene.absolutePath(image))
      }
      if item.identifier != Item.defaultIdentifier {
        out.write(", \"identifier\": ")
        out.write(quoting: item.identifier)
      }
      if let data = item.data, !data.isEmpty {
        out.write(", \"data\": ")
        Scene.writeData(data, to: out)
        if !data.folder.isEmpty {
          // Paths in the data are relative to the file that gave it: absolute, as images are.
          out.write(", \"dataFolder\": ")
          out.write(quoting: Scene.absolutePath(data.folder))
        }
      }
      out.write("}")
    }
    out.write(snapshot.count > 0 ? "\n]}" : "]}")
  }

  package static func rect(_ r: Rect, text: String? = nil) -> JSONText {
    var pairs: [(String, JSONText)] = [
      ("x", JSONText(r.minX)), ("y", JSONText(r.minY)),
      ("width", JSONText(r.width)), ("height", JSONText(r.height)),
    ]
    if let text { pairs.append(("text", .string(text))) }
    return .object(pairs)
  }

  package static func size(_ s: Size) -> JSONText {
    .object([("width", JSONText(s.width)), ("height", JSONText(s.height))])
  }
}
