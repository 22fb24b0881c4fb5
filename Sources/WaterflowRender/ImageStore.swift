package import Cairo
public import PNGCodec
import WaterflowView

/// Loads the cells' images once each, remembering which could not be loaded.
///
/// A missing or unreadable image is not an error: the cell shows a "loading" placeholder, as the
/// shop demo does while an image downloads, and the caller reports ``failures`` as warnings.
public final class ImageStore {
  private var loaded: [String: ImageSurface] = [:]
  /// Whether each loaded image is opaque, found once per image.
  private var opaque: [String: Bool] = [:]
  /// Translucent images flattened over a cell colour, so that a scroll's frames flatten each
  /// photo once per colour rather than once per frame.
  private var flattened: [Flattened: ImageSurface] = [:]

  private struct Flattened: Hashable {
    var path: String
    var color: Color
  }
  /// Why each image that could not be loaded failed, by path.
  public private(set) var failures: [String: String] = [:]
  /// The paths of images that exist but cannot be drawn (not PNG, JPEG or WebP, or not
  /// decodable): bad input, not a slow download.
  public private(set) var corrupt: Set<String> = []

  public init() {}

  /// The image at a path (PNG, JPEG or WebP, by content), or nil when it cannot be loaded (the
  /// reason goes to ``failures``, naming `item`, the index of the first cell that showed it).
  func image(at path: String, item: Int) -> ImageSurface? {
    if let image = loaded[path] { return image }
    if failures[path] != nil { return nil }
    if path.contains("://") {
      failures[path] = "remote images are not downloaded"
      return nil
    }
    do {
      let image = try ImageSurface(contentsOfImageFile: path)
      loaded[path] = image
      opaque[path] = image.isOpaque
      return image
    } catch {
      failures[path] = "\(error)"
      if let e = error as? GraphicsError,
        [.invalidPNG, .invalidImage, .unsupportedImage].contains(e.code)
      {
        failures[path] = "item \(item): \(error)"
        corrupt.insert(path)
      }
      return nil
    }
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
    guard let image = image(at: path, item: item) else { return nil }
    guard width < image.width, height < image.height, width > 0, height > 0 else { return image }
    let key = Resized(path: path, width: width, height: height)
    if let copy = resized[key] { return copy }
    guard let copy = try? image.resized(width: width, height: height) else { return image }
    // A bound, as for flattened photos: a long scroll of distinct photos starts over.
    if resizedBytes + 4 * width * height > Self.resizedBudget {
      resized.removeAll(keepingCapacity: true)
      resizedBytes = 0
    }
    resized[key] = copy
    resizedBytes += 4 * width * height
    return copy
  }

  /// The image at a path over a cell's colour, opaque: itself when it has no translucent
  /// pixels, else a copy flattened over the colour.
  func opaqueImage(at path: String, item: Int, over color: Color) -> ImageSurface? {
    guard let image = image(at: path, item: item) else { return nil }
    if opaque[path] == true { return image }
    let key = Flattened(path: path, color: color)
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
