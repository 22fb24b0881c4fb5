internal import WaterflowInputs
internal import Cairo
#if canImport(Glibc)
internal import Glibc
#endif
internal import PNGCodec
import WaterflowView
internal import Synchronization

/// Loads the cells' images once each, remembering which could not be loaded.
///
/// A missing or unreadable image is not an error: the cell shows a "loading" placeholder, as the
/// shop demo does while an image downloads, and the caller reports ``failures`` as warnings.
///
/// Every cache here keys on everything that decides its pixels, so that an image drawn for one
/// request is the same whatever was drawn before it, on whichever thread, and whenever a budget
/// emptied a cache: a golden's bytes depend on its own inputs alone. A photo is decoded at the
/// size its request decides (`ImageFileHeader.decodedSize(covering:)`), and kept under that
/// size; a copy decoded larger for another cell never serves it. Budgets only cost time.
public final class ImageStore {
  /// Decoded images, by path and the size they were decoded at.
  private var loaded: [Decoded: ImageSurface] = [:]
  /// Bytes of decoded pixels held in `loaded`.
  private var loadedBytes = 0
  /// What image files' headers declare, read once per path.
  private var headers: [String: ImageFileHeader] = [:]
  /// Whether each decoded image is opaque, found once per image.
  private var opaque: [Decoded: Bool] = [:]
  /// Translucent images flattened over a cell colour, so that a scroll's frames flatten each
  /// photo once per colour rather than once per frame.
  private var flattened: [Flattened: ImageSurface] = [:]

  /// An image file decoded at a size: the file's size when its header cannot be read.
  fileprivate struct Decoded: Hashable {
    var path: String
    /// The decoded size; -1 for "whole", when the header cannot be read.
    var width: Int
    var height: Int
  }

  private struct Flattened: Hashable {
    var image: Decoded
    var color: Color
  }
  /// Why each image that could not be loaded failed, by path: "item 3: …", naming the lowest
  /// item that showed it, whatever order the cells were drawn in.
  public var failures: [String: String] {
    failed.mapValues { "item \($0.item): \($0.reason)" }
  }
  private var failed: [String: (item: Int, reason: String)] = [:]
  /// The paths of images that exist but cannot be drawn (not PNG, JPEG or WebP, or not
  /// decodable): bad input, not a slow download.
  public private(set) var corrupt: Set<String> = []

  /// The decodes this store shares with the other stores of a job, if any.
  private let shared: SharedImageDecodes?

  /// Creates a store of its own, or one that shares decoded photos with the other stores given
  /// the same `decodes` (the renderers of one job's threads).
  public init(sharing decodes: SharedImageDecodes? = nil) {
    shared = decodes
  }

  /// Forgets everything known about the image files a predicate picks (their decoded pixels,
  /// headers and failures), so that the next drawing reads them again: for a file that changed
  /// on disk while the store lived (the live preview).
  public func forget(where changed: (String) -> Bool) {
    for key in loaded.keys where changed(key.path) {
      if let image = loaded.removeValue(forKey: key) { loadedBytes -= 4 * image.width * image.height }
    }
    headers = headers.filter { !changed($0.key) }
    opaque = opaque.filter { !changed($0.key.path) }
    flattened = flattened.filter { !changed($0.key.image.path) }
    failed = failed.filter { !changed($0.key) }
    corrupt = corrupt.filter { !changed($0) }
  }

  /// The warnings for images that could not be loaded, one line each, as `render`, `scroll` and
  /// `shots` print them: a feed's remote images share one line (how many, and the first by item),
  /// every other image has its own. Images in ``corrupt`` are errors, not warnings: leave them out.
  ///
  /// - Parameter failures: ``failures``, or a merge of several stores' (a scroll's threads).
  /// - Complexity: O(*n* log *n*) for *n* failures.
  public static func warnings(for failures: [String: String]) -> [String] {
    func sentence(_ message: String) -> String {
      message.hasSuffix(".") ? message : message + "."
    }
    var lines: [String] = []
    let remote = failures.filter { $0.key.contains("://") }
    if let first = remote.min(by: { (item($0.value), $0.key) < (item($1.value), $1.key) }) {
      lines.append(
        remote.count == 1
          ? sentence(first.value) + " Its cell shows a loading placeholder."
          : "\(remote.count) remote images are not downloaded, the first for item "
            + "\(item(first.value)): \(first.key). Their cells show a loading placeholder.")
    }
    for path in failures.keys.sorted() where !path.contains("://") {
      lines.append(sentence(failures[path]!) + " The cell shows a loading placeholder.")
    }
    return lines
  }

  /// Of two stores' reasons for one image, the one that names the lower item (then the first in
  /// text order): merged this way, warnings do not depend on which thread drew what.
  public static func earlierFailure(_ a: String, _ b: String) -> String {
    (item(a), a) <= (item(b), b) ? a : b
  }

  /// The item a failure's reason names ("item 3: …"), or `Int.max`.
  private static func item(_ message: String) -> Int {
    guard message.hasPrefix("item "), let colon = message.firstIndex(of: ":") else { return .max }
    return Int(message[message.index(message.startIndex, offsetBy: 5)..<colon]) ?? .max
  }

  /// A test-only fault: a photo decoded larger for one cell serves smaller requests after it,
  /// as this store did before its keys held the decoded size. Its pixels then depend on what
  /// was drawn before, which `golden check --repeat` must find; set
  /// `WATERFLOW_TEST_ORDER_DEPENDENT_IMAGES=1` to bring it back in a test, never otherwise.
  static let servesLargerDecodes = getenv("WATERFLOW_TEST_ORDER_DEPENDENT_IMAGES") != nil

  /// The most bytes of decoded images kept: a scroll through hundreds of distinct photos
  /// decodes again rather than holding them all.
  static let decodedBudget = 256 << 20

  /// The image at a path (PNG, JPEG or WebP, by content), or nil when it cannot be loaded (the
  /// reason goes to ``failures``, naming `item`, the lowest item that showed it).
  ///
  /// - Parameter covering: The pixel size it is drawn at, if known: a JPEG or WebP is then
  ///   decoded no larger than needed to cover it, and always at that size for that request.
  func image(at path: String, item: Int, covering: (width: Int, height: Int)? = nil) -> ImageSurface? {
    decoded(at: path, item: item, covering: covering)?.image
  }

  /// The image at a path decoded for a request, with its cache key.
  private func decoded(at path: String, item: Int, covering: (width: Int, height: Int)?)
    -> (image: ImageSurface, key: Decoded)?
  {
    InputRecorder.note(path)
    if let failure = failed[path] {
      if item < failure.item { failed[path]!.item = item }
      return nil
    }
    if path.contains("://") {
      failed[path] = (item, "remote image \(path) is not downloaded")
      return nil
    }
    let size = header(at: path)?.decodedSize(covering: covering)
    let key = Decoded(path: path, width: size?.width ?? -1, height: size?.height ?? -1)
    if let image = loaded[key] { return (image, key) }
    if Self.servesLargerDecodes,
      let (larger, image) = loaded.first(where: {
        $0.key.path == path && $0.key.width >= key.width && $0.key.height >= key.height
      })
    {
      return (image, larger)
    }
    do {
      let (image, isOpaque) =
        try shared?.image(.init(decoded: key)) {
          try ImageSurface(contentsOfImageFile: path, covering: covering)
        } ?? Self.decode(path, covering: covering)
      if loadedBytes + 4 * image.width * image.height > Self.decodedBudget {
        loaded.removeAll(keepingCapacity: true)
        opaque.removeAll(keepingCapacity: true)
        loadedBytes = 0
      }
      loaded[key] = image
      loadedBytes += 4 * image.width * image.height
      opaque[key] = isOpaque
      return (image, key)
    } catch {
      failed[path] = (item, "\(error)")
      if let e = error as? GraphicsError,
        [.invalidPNG, .invalidImage, .unsupportedImage, .imageTooLarge].contains(e.code)
      {
        corrupt.insert(path)
      }
      return nil
    }
  }

  /// An image file decoded for a request, and whether it is opaque.
  private static func decode(_ path: String, covering: (width: Int, height: Int)?) throws
    -> (ImageSurface, Bool)
  {
    let image = try ImageSurface(contentsOfImageFile: path, covering: covering)
    return (image, image.isOpaque)
  }

  /// What an image file's header declares, read once; nil when it cannot be read.
  private func header(at path: String) -> ImageFileHeader? {
    if let header = headers[path] { return header }
    guard !path.contains("://"), let header = ImageFileHeader(ofFile: path) else { return nil }
    headers[path] = header
    return header
  }

  /// The pixel size an image file declares, read from its header once; nil when it cannot be
  /// read.
  func pixelSize(at path: String) -> (width: Int, height: Int)? {
    InputRecorder.note(path)
    return header(at: path).map { ($0.width, $0.height) }
  }

  /// The image's width ÷ height from its header, without decoding it; nil when it cannot be
  /// loaded (the reason goes to ``failures``).
  func aspectRatio(at path: String, item: Int) -> Double? {
    if let size = pixelSize(at: path), size.width > 0, size.height > 0 {
      return Double(size.width) / Double(size.height)
    }
    return image(at: path, item: item).map { Double($0.width) / Double($0.height) }
  }

  /// The size an image must be decoded at to fill a box of pixels, keeping its aspect ratio
  /// (the box's size, grown on one side); nil when its header cannot be read.
  func coveringSize(at path: String, filling width: Int, _ height: Int) -> (width: Int, height: Int)? {
    guard let size = pixelSize(at: path), size.width > 0, size.height > 0, width > 0, height > 0 else {
      return nil
    }
    let s = max(Double(width) / Double(size.width), Double(height) / Double(size.height))
    return (Int((Double(size.width) * s).rounded(.up)), Int((Double(size.height) * s).rounded(.up)))
  }

  /// Images resized to the pixel size they are drawn at, by path and size.
  private var resized: [Resized: ImageSurface] = [:]
  private var resizedBytes = 0

  private struct Resized: Hashable {
    var path: String
    var width: Int
    var height: Int
  }

  /// The most bytes of resized copies kept: a screen of photos at 3× is about 10 MB.
  static let resizedBudget = 64 << 20

  /// The image at a path resized to a pixel size, when that is smaller than the image (a
  /// larger size gains nothing over drawing the image itself); nil when it cannot be loaded.
  func image(at path: String, item: Int, resizedTo width: Int, _ height: Int) -> ImageSurface? {
    let covering = width > 0 && height > 0 ? (width, height) : nil
    guard let (image, decodedKey) = decoded(at: path, item: item, covering: covering) else {
      return nil
    }
    guard width < image.width, height < image.height, width > 0, height > 0 else { return image }
    let key = Resized(path: path, width: width, height: height)
    if let copy = resized[key] { return copy }
    let shares = SharedImageDecodes.Key(
      decoded: decodedKey, resizedWidth: width, resizedHeight: height)
    guard
      let copy = try? shared?.image(shares, make: { try image.resized(width: width, height: height) }).0
        ?? image.resized(width: width, height: height)
    else { return image }
    // A bound, as for flattened photos: a long scroll of distinct photos starts over.
    if resizedBytes + 4 * width * height > Self.resizedBudget {
      resized.removeAll(keepingCapacity: true)
      resizedBytes = 0
    }
    resized[key] = copy
    resizedBytes += 4 * width * height
    return copy
  }

  /// Whether the image at a path, as ``image(at:item:resizedTo:_:)`` gives it, is loaded and has
  /// no translucent pixel (a resized copy of an opaque image is opaque).
  func isOpaque(at path: String, item: Int, resizedTo width: Int, _ height: Int) -> Bool {
    let covering = width > 0 && height > 0 ? (width, height) : nil
    guard let (_, key) = decoded(at: path, item: item, covering: covering) else { return false }
    return opaque[key] == true
  }

  /// The image at a path over a cell's colour, opaque: itself when it has no translucent
  /// pixels, else a copy flattened over the colour.
  ///
  /// - Parameter filling: The box it fills, in pixels: the image is decoded no larger than needed.
  func opaqueImage(
    at path: String, item: Int, over color: Color, filling box: (width: Int, height: Int)? = nil
  ) -> ImageSurface? {
    let covering = box.flatMap { coveringSize(at: path, filling: $0.width, $0.height) }
    guard let (image, decodedKey) = decoded(at: path, item: item, covering: covering) else { return nil }
    if opaque[decodedKey] == true { return image }
    let key = Flattened(image: decodedKey, color: color)
    if let copy = flattened[key] { return copy }
    guard let copy = try? image.flattened(over: color.red, color.green, color.blue) else {
      return image
    }
    // A bound, as for laid-out texts: random colours would otherwise grow it without end.
    if flattened.count >= 256 { flattened.removeAll(keepingCapacity: true) }
    flattened[key] = copy
    return copy
  }
}

/// Photos decoded once for all the image stores of a job, whichever of its threads asks first.
///
/// Each thread of a scroll or a shot set draws with a renderer of its own, and each used to
/// decode every photo it drew: on two threads, a photo feed's JPEGs were decoded twice, and
/// resized twice for the cells they fill. Here a photo is decoded (or resized) by the first
/// thread that needs it, at the size its request decides, while a second thread asking for the
/// same one waits for it; each store then draws from a surface of its own over the same pixels
/// (`ImageSurface.sharingPixels()`). The keys are the store's own, path and decoded size (and
/// the resized size), so a shared image is the one the store would have made: pixels do not
/// depend on which thread made them, nor on the budget.
public final class SharedImageDecodes: Sendable {
  /// An image as decoded for a request, or a copy of it resized to a pixel size.
  fileprivate struct Key: Hashable {
    var decoded: ImageStore.Decoded
    /// The resized size; nil for the decoded image itself.
    var resizedWidth: Int?
    var resizedHeight: Int?
  }

  /// One image: empty until the first thread that asked has made it (under `entry`'s lock,
  /// which the others wait on).
  private final class Slot: Sendable {
    let entry = Mutex<Entry?>(nil)
  }

  /// A decoded image, used only to make surfaces over its pixels; never drawn itself.
  private struct Entry: @unchecked Sendable {
    var image: ImageSurface
    var isOpaque: Bool
  }

  /// The slots, and the bytes of the images in them.
  private let slots = Mutex<(table: [Key: Slot], bytes: Int)>(([:], 0))

  /// The most bytes of images kept: past it the table starts over (stores keep what they hold),
  /// which costs only decoding again.
  static let budget = ImageStore.decodedBudget

  /// Creates an empty set of decodes.
  public init() {}

  /// The image for `key`, made by `make` if no thread has yet, as a surface of this thread's own,
  /// and whether it is opaque.
  fileprivate func image(
    _ key: Key, make: () throws -> ImageSurface
  ) throws -> (ImageSurface, Bool) {
    let slot = slots.withLock { slots in
      if let slot = slots.table[key] { return slot }
      let slot = Slot()
      slots.table[key] = slot
      return slot
    }
    // A failure leaves the slot empty: the next thread tries again, and records its own failure
    // as a store without sharing would.
    let entry = try slot.entry.withLock { entry throws -> Entry in
      if let entry { return entry }
      let image = try make()
      // Flushed once here, by one thread, so that the threads sharing it only read it (reading
      // the pixels flushes).
      image.withUnsafePixels { _, _ in }
      // Only decoded images are asked whether they are opaque.
      let made = Entry(image: image, isOpaque: key.resizedWidth == nil && image.isOpaque)
      entry = made
      let bytes = 4 * image.width * image.height
      slots.withLock { slots in
        if slots.bytes + bytes > Self.budget {
          slots.table = slots.table.filter { $0.value === slot }
          slots.bytes = 0
        }
        slots.bytes += bytes
      }
      return made
    }
    return (try entry.image.sharingPixels(), entry.isOpaque)
  }
}
