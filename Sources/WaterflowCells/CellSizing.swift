import Synchronization
import WaterflowStyle
import WaterflowView
import WaterflowData

extension FieldRead.Expectation {
  /// Why a value is not what a template reads it as (the words after "reads as"), or nil.
  package func problem(with value: DataValue) -> String? {
    switch self {
    case .text: return nil
    case .positiveNumber:
      if let n = value.number, n.isFinite, n > 0 { return nil }
      return "a number: give a finite number above 0"
    case .number:
      if let n = value.number, n.isFinite { return nil }
      return "a number: give a finite number"
    case .date:
      if DataFormat.relative.format(value, in: DataFormatting()) != nil { return nil }
      return "a date: give an ISO 8601 date (\"2026-11-24T08:30:00Z\") or a Unix time"
    case .icon:
      if let name = value.text, IconShape(named: name) != nil { return nil }
      return "an icon (icons are: \(IconShape.names.joined(separator: ", ")))"
    case .color:
      if let text = value.text, Color(hexString: text) != nil { return nil }
      return "a colour: give #RRGGBB or #RRGGBBAA"
    }
  }
}

/// What a template asks of an item's data, worked out once per template and checked against
/// every item: the fields it reads unguarded must be given, values it reads as numbers, dates,
/// icons or colours must be them, and an icon or colour it takes from data must exist.
package struct TemplateDataCheck: Sendable {
  private let formatting: DataFormatting
  private let required: [(read: FieldRead, path: DataPath)]
  /// Checked wherever the field is given, guarded or not: a bad one would draw.
  private let typed: [(read: FieldRead, path: DataPath)]
  /// Texts from data the template chooses an icon or colour by, resolved per item.
  private let bound: [(text: FieldText, path: String, expects: FieldRead.Expectation)]

  package init(_ template: CellTemplate) {
    formatting = template.formatting
    required = template.fieldReads.filter { !$0.isGuarded }.map { ($0, DataPath($0.field)) }
    typed = template.fieldReads.filter { $0.expects != .text }.map { ($0, DataPath($0.field)) }
    bound = template.dataAttributes
  }

  /// The first way `data` fails the template, or nil: the element's path in the template, and
  /// the message, given the template as messages name it (`notes.json: cells.note.content…`).
  package func problem(in data: ItemData, index: Int)
    -> (path: String, message: (_ template: String) -> String)?
  {
    for (read, field) in required {
      guard let value = data[field] else {
        return (read.path, { template in
          "has no field \"\(read.field)\"\(data.nearestPath(to: read.field)), which "
            + "\(template) reads; give it in the item's data, or show the element only "
            + "\"when\": \"{\(read.field)}\""
        })
      }
      if value.text == nil, read.expects == .text, read.format == nil {
        return (read.path, { template in
          "field \"\(read.field)\" is \(value.kindName), which \(template) shows as a text; "
            + value.partsHint(field: read.field)
        })
      }
    }
    for (read, field) in typed {
      guard let value = data[field], value != .null, let problem = read.expects.problem(with: value)
      else { continue }
      return (read.path, { template in
        "field \"\(read.field)\" is \(value.quoted), which \(template) reads as \(problem)"
      })
    }
    for attribute in bound {
      let text = attribute.text.resolve(in: data, index: index, formatting: formatting) ?? ""
      guard !text.isEmpty, let problem = attribute.expects.problem(with: .string(text)) else { continue }
      let fields = attribute.text.reads.map { "\"\($0.path.source)\"" }.joined(separator: ", ")
      return (attribute.path, { template in
        "\(template) takes \"\(text)\" from the data (field \(fields)) as \(problem)"
      })
    }
    return nil
  }
}

/// A template kept once and referred to by every item that sizes by it.
package final class TemplateBox: Sendable {
  package let template: CellTemplate
  package init(_ template: CellTemplate) { self.template = template }
}

/// The measurer a scene's self-sizing items share, and the heights measured ahead of the
/// layout; swapped when the renderer's fonts differ.
package final class CellSizing: Sendable {
  private struct State {
    var measurer: CellMeasurer
    /// Heights measured ahead, by flat index, with the width each was measured at (NaN for
    /// none): an array, not a dictionary, at a sixth of the bytes for a feed's every item.
    var measured: [(width: Double, height: Double)] = []
  }

  private let state: Mutex<State>

  package init(_ measurer: CellMeasurer) { state = Mutex(State(measurer: measurer)) }

  /// The measurer heights are measured with now.
  package var measurer: CellMeasurer { state.withLock { $0.measurer } }

  /// Measures with other fonts from now on, forgetting heights measured with the old ones.
  package func use(_ other: CellMeasurer) {
    state.withLock { state in
      if state.measurer !== other { state = State(measurer: other) }
    }
  }

  /// Measures items ahead of the layout, on every core; `item` gives the n-th one's template,
  /// data and flat index, `indices[n]`.
  package func premeasure(
    indices: [Int], width: Double,
    item: @Sendable (Int) -> (template: CellTemplate, data: ItemData, index: Int)
  ) {
    let measurer = state.withLock { $0.measurer }
    let heights = measurer.heights(count: indices.count, width: width, item: item)
    state.withLock { state in
      if let last = indices.max(), state.measured.count <= last {
        state.measured += repeatElement((.nan, 0), count: last + 1 - state.measured.count)
      }
      for (flat, height) in zip(indices, heights) { state.measured[flat] = (width, height) }
    }
  }

  package func height(of template: CellTemplate, data: ItemData, index: Int, width: Double) -> Double {
    let (measurer, known) = state.withLock {
      ($0.measurer, index < $0.measured.count ? $0.measured[index] : nil)
    }
    if let known, known.width == width { return known.height }
    return measurer.height(of: template, data: data, index: index, width: width)
  }
}
