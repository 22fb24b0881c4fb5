internal import WaterflowInputs
package import Cairo
import Dispatch
import Foundation
import WaterflowView
import Synchronization

/// Measures template cells: their heights at a width, for the layout's self-sizing items.
///
/// Texts are laid out by the same Pango path the renderer draws with (``CellTextStyle``'s
/// layout), with the same font files, so a measured line is exactly a drawn one. Each text is
/// measured once per width and style, and each image file's aspect ratio is read once from its
/// header. A measurer is safe to share between threads: one lock guards its fonts and caches.
/// Its caches key on all that decides a size (a text's bytes, style and width; an image's path),
/// so a height never depends on what was measured before it.
///
/// ```swift
/// let measurer = try CellMeasurer.shared(fontPaths: FontStack.defaultPaths)
/// let height = measurer.height(of: note, data: item, index: 4, width: 172)
/// ```
public final class CellMeasurer: Sendable {
  /// A text's UTF-8 bytes with the style and width it is measured at.
  ///
  /// By bytes, not by Unicode canonical equivalence: String's own hashing normalises every CJK
  /// title to NFC first, a quarter of a large feed's measuring time; and Pango shapes the bytes,
  /// so byte-equal texts are exactly the ones that measure the same. The bytes are pointed to,
  /// not held, and the hash is worked out once: a key copies without reference counting, so
  /// looking one up among a feed's hundred thousand titles touches none of their strings.
  private struct TextKey: Hashable, @unchecked Sendable {
    // @unchecked: a stored key's bytes are the cache's, never changed, freed only with the
    // cache under its lock; a caller's key lives only while it looks up.

    /// The bytes: the caller's while it looks up, the cache's own copy once stored.
    let bytes: UnsafeRawBufferPointer
    let style: CellTextStyle
    let width: Double?
    let hash: Int

    init(_ bytes: UnsafeRawBufferPointer, style: CellTextStyle, width: Double?) {
      self.bytes = bytes
      self.style = style
      self.width = width
      var hasher = Hasher()
      hasher.combine(bytes: bytes)
      hasher.combine(style)
      hasher.combine(width)
      hash = hasher.finalize()
    }

    /// The key with the bytes copied, for the cache to keep (and free with ``free()``).
    func stored() -> TextKey {
      let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
      copy.copyMemory(from: bytes)
      return TextKey(UnsafeRawBufferPointer(copy), style: style, width: width, hash: hash)
    }

    private init(_ bytes: UnsafeRawBufferPointer, style: CellTextStyle, width: Double?, hash: Int) {
      self.bytes = bytes
      self.style = style
      self.width = width
      self.hash = hash
    }

    func free() { bytes.deallocate() }

    static func == (a: TextKey, b: TextKey) -> Bool {
      a.hash == b.hash && a.style == b.style && a.width == b.width
        && a.bytes.elementsEqual(b.bytes)
    }

    func hash(into hasher: inout Hasher) { hasher.combine(hash) }
  }

  private struct State: ~Copyable {
    /// The fonts; Pango contexts are not thread-safe, so they are used only under the lock.
    let fonts: FontStack
    /// One layout per style, laying out each text in turn.
    var layouts: [CellTextStyle: TextLayout] = [:]
    /// Sizes by stored keys, whose bytes are the cache's.
    var texts: [TextKey: TextSize] = [:]
    var aspects: [String: Double?] = [:]

    init(fonts: FontStack) { self.fonts = fonts }

    mutating func store(_ size: TextSize, for key: TextKey) {
      // A bound, as the renderer's: a feed of a million distinct titles starts over. What
      // repeats (names, counts, tags) is measured again within a few thousand items, and a
      // title is measured once per width: 32,768 keys, not a feed's every title, on each lane.
      if texts.count >= 1 << 15 { forgetTexts() }
      texts[key.stored()] = size
    }

    mutating func forgetTexts() {
      for key in texts.keys { key.free() }
      texts.removeAll(keepingCapacity: true)
    }

    deinit { for key in texts.keys { key.free() } }
  }

  private let state: Mutex<State>
  /// Measurers with fonts of their own, for measuring many items on several threads.
  private let helpers = Mutex<[CellMeasurer]>([])
  /// The font files, in the order they are tried.
  public let fontPaths: [String]

  /// A measurer with its own fonts.
  ///
  /// - Throws: An error naming the first font file that cannot be loaded.
  public init(fontPaths: [String]) throws {
    state = Mutex(State(fonts: try FontStack(paths: fontPaths)))
    self.fontPaths = fontPaths
  }

  /// The renderer's default font files: DejaVu Sans, then the CJK font (and the fonts after).
  public static var defaultFontPaths: [String] { FontStack.defaultPaths }

  private static let sharedMeasurers = Mutex<[[String]: CellMeasurer]>([:])

  /// The measurer of these font files, made on first use and kept: the renderer's fonts and the
  /// layout's must be the same files, and fontconfig scans them once.
  ///
  /// - Throws: An error naming the first font file that cannot be loaded.
  public static func shared(fontPaths: [String]) throws -> CellMeasurer {
    try sharedMeasurers.withLock { cache in
      if let measurer = cache[fontPaths] { return measurer }
      let measurer = try CellMeasurer(fontPaths: fontPaths)
      cache[fontPaths] = measurer
      return measurer
    }
  }

  /// The height of an item's cell at a width.
  ///
  /// - Complexity: O(elements) once every text of the item has been measured at this width.
  public func height(of template: CellTemplate, data: ItemData, index: Int, width: Double)
    -> Double
  {
    engine(data: data, index: index).height(of: template, width: width)
  }

  /// The heights of many items' cells at one width, measured on every core: a feed's items
  /// before its layout asks for them one by one.
  ///
  /// Each thread measures with fonts of its own (a Pango context serves one thread), so the
  /// heights are exactly those ``height(of:data:index:width:)`` gives.
  ///
  /// - Parameters:
  ///   - count: How many items.
  ///   - width: The width they are measured at.
  ///   - item: The template, data and index of the n-th item.
  /// - Complexity: O(n) texts laid out, over as many threads as there are cores.
  public func heights(
    count: Int, width: Double,
    item: @Sendable (Int) -> (template: CellTemplate, data: ItemData, index: Int)
  ) -> [Double] {
    let lanes = max(1, min(ProcessInfo.processInfo.activeProcessorCount, count / 256))
    let measurers = [self] + helpers.withLock { helpers in
      while helpers.count < lanes - 1 {
        guard let helper = try? CellMeasurer(fontPaths: fontPaths) else { break }
        helpers.append(helper)
      }
      return Array(helpers.prefix(lanes - 1))
    }
    // Lanes take chunks in turn rather than a fixed share each: on a shared machine a lane
    // whose core is busy elsewhere would otherwise finish last and alone. Each height goes
    // to its item's place, so the order of the chunks changes nothing.
    let chunk = 128
    let chunks = (count + chunk - 1) / chunk
    let next = Atomic<Int>(0)
    var heights = [Double](repeating: 0, count: count)
    // The lanes note the images they read into the caller's recorder: they are its work.
    let recorder = InputRecorder.current
    heights.withUnsafeMutableBufferPointer { buffer in
      let out = SharedBuffer(buffer)
      DispatchQueue.concurrentPerform(iterations: measurers.count) { lane in
        InputRecorder.$current.withValue(recorder) {
          let measurer = measurers[lane]
          while true {
            let c = next.wrappingAdd(1, ordering: .relaxed).oldValue
            guard c < chunks else { break }
            for n in (c * chunk)..<min(count, (c + 1) * chunk) {
              let (template, data, index) = item(n)
              out.buffer[n] = measurer.height(of: template, data: data, index: index, width: width)
            }
          }
        }
      }
    }
    return heights
  }

  /// A layout engine for one item that measures with this measurer.
  public func engine(data: ItemData, index: Int) -> CellLayoutEngine {
    CellLayoutEngine(
      data: data, index: index, measureText: { self.size(of: $0, style: $1, width: $2) },
      imageAspect: { self.aspect(ofImageAt: $0) })
  }

  /// The size of a text laid out in a style at a width (nil for one unwrapped line).
  ///
  /// - Complexity: O(1) after the first call with the same text, style and width.
  public func size(of text: String, style: CellTextStyle, width: Double?) -> TextSize {
    guard !text.isEmpty else { return TextSize(width: 0, height: 0) }
    var contiguous = text
    return contiguous.withUTF8 { utf8 in
      let bytes = UnsafeRawBufferPointer(utf8)
      let key = TextKey(bytes, style: style, width: width)
      return state.withLock { state in
        if let size = state.texts[key] { return size }
        // A row's text is measured unwrapped for its natural width, then at the width it was
        // given, most often that natural width. A one-line style's text that fits is laid out
        // the same either way (its one line is neither wrapped nor cut), so the first measure
        // serves. Not across paragraphs: only the first line of the first is kept at a width.
        if style.lines == 1, let width,
          let natural = state.texts[TextKey(bytes, style: style, width: nil)],
          TextLayout.keepsOneLine(naturalWidth: natural.width, in: width),
          TextLayout.isOneParagraph(text)
        {
          state.store(natural, for: key)
          return natural
        }
        let layout: TextLayout
        if let reused = state.layouts[style] {
          layout = reused
        } else {
          layout = style.emptyLayout(fonts: state.fonts)
          state.layouts[style] = layout
        }
        let box = layout.size(of: text, width: width)
        let size = TextSize(width: box.width, height: box.height, baseline: layout.baseline)
        state.store(size, for: key)
        return size
      }
    }
  }

  /// The width-to-height ratio an image file declares, or nil when it cannot be read.
  public func aspect(ofImageAt path: String) -> Double? {
    InputRecorder.note(path)
    return state.withLock { state in
      if let known = state.aspects[path] { return known }
      let size = ImageFileFormat.pixelSize(ofFile: path)
      let aspect = size.flatMap { $0.height > 0 ? Double($0.width) / Double($0.height) : nil }
      state.aspects[path] = aspect
      return aspect
    }
  }
}

/// A buffer whose elements lanes write apart, each to indices no other lane touches.
private struct SharedBuffer<Element>: @unchecked Sendable {
  let buffer: UnsafeMutableBufferPointer<Element>
  init(_ buffer: UnsafeMutableBufferPointer<Element>) { self.buffer = buffer }
}

extension CellTextStyle {
  /// The text laid out in this style: with ``emptyLayout(fonts:)``, the one place both
  /// measuring and drawing make layouts.
  package func layout(_ text: String, fonts: FontStack, width: Double?) -> TextLayout {
    let layout = emptyLayout(fonts: fonts)
    layout.setText(text, width: width)
    return layout
  }

  /// A layout of this style with no text yet.
  func emptyLayout(fonts: FontStack) -> TextLayout {
    let alignment: TextAlignment =
      switch self.alignment {
      case .leading: .leading
      case .center: .center
      case .trailing: .trailing
      }
    let weight: TextWeight =
      switch self.weight {
      case .regular: .regular
      case .medium: .medium
      case .semibold: .semibold
      case .bold: .bold
      }
    // No limit is a limit no cell reaches; Pango's height is in 32-bit units.
    return TextLayout(
      fonts: fonts, size: size, maxLines: lines == 0 ? 10_000 : lines, lineHeight: lineHeight,
      alignment: alignment, weight: weight)
  }
}
