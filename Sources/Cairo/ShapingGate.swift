#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Lets texts be shaped on many threads at once, except right-to-left ones, which are shaped
/// while no other text is.
///
/// Arabic laid out in a box narrower than one of its letters, where Pango breaks inside
/// clusters, came out in other lines and without its ligatures (26 lines for a text that has 21)
/// in most runs of a test that lays out texts on eight threads, each with a font stack of its
/// own. Separate fontconfig configurations per thread still differed; a lock among right-to-left
/// texts alone did not help (a Latin text shaped meanwhile was enough); shaping one text at a
/// time never differed. The state the threads share is inside Pango 1.50, HarfBuzz or cairo, so
/// the right-to-left texts, rare in a feed, wait for the others instead: everything else still
/// shapes in parallel (the template measurer, a scroll's workers).
final class ShapingGate: @unchecked Sendable {
  // @unchecked: the lock is a pthread read-write lock, made once and never freed.

  /// The gate every text layout passes.
  static let shared = ShapingGate()

  private let lock: UnsafeMutablePointer<pthread_rwlock_t>

  private init() {
    lock = .allocate(capacity: 1)
    // Writers first: with readers preferred, two threads that shape without pause could keep a
    // right-to-left text waiting for as long as they run.
    var attributes = pthread_rwlockattr_t()
    pthread_rwlockattr_init(&attributes)
    #if canImport(Glibc)
    pthread_rwlockattr_setkind_np(&attributes, Int32(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP))
    #endif
    pthread_rwlock_init(lock, &attributes)
    pthread_rwlockattr_destroy(&attributes)
  }

  /// Runs `body` beside other shaping, or `alone`, when no other text is being shaped.
  func pass<T>(alone: Bool, _ body: () throws -> T) rethrows -> T {
    if alone { pthread_rwlock_wrlock(lock) } else { pthread_rwlock_rdlock(lock) }
    defer { pthread_rwlock_unlock(lock) }
    return try body()
  }

  /// Whether a text has a character of a right-to-left script: Hebrew, Arabic, Syriac, Thaana,
  /// N'Ko, Samaritan, Mandaic, their presentation forms, and the right-to-left ranges above the
  /// Basic Multilingual Plane.
  static func mustShapeAlone(_ text: String) -> Bool {
    text.unicodeScalars.contains { scalar in
      switch scalar.value {
      case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF:
        true
      default:
        false
      }
    }
  }
}
