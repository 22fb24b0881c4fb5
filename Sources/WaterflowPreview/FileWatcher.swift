internal import Foundation
internal import Synchronization
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Watches files and reports the ones that changed, a burst of saves at a time.
///
/// On Linux it watches the files' folders with inotify, so that an editor that saves by writing
/// a new file and renaming it over the old one (vim, most IDEs) is seen too; elsewhere it
/// compares modification times every 100 ms. Events within 30 ms of each other are reported
/// together, as one save.
public final class FileWatcher: Sendable {
  private let files = Mutex<Set<String>>([])
  private let onChange: @Sendable (Set<String>) -> Void

  /// Starts watching on a thread of its own; `onChange` is called there with the changed paths.
  public init(onChange: @escaping @Sendable (Set<String>) -> Void) {
    self.onChange = onChange
    let thread = Thread { [self] in run() }
    thread.start()
  }

  /// Watches exactly these files from now on (paths as the readers noted them).
  public func watch(_ paths: Set<String>) {
    files.withLock { $0 = Set(paths.map(Self.absolute)) }
  }

  static func absolute(_ path: String) -> String {
    let full = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    return URL(fileURLWithPath: full).standardizedFileURL.path
  }

  #if os(Linux)
  private func run() {
    let fd = inotify_init1(Int32(IN_CLOEXEC))
    guard fd >= 0 else { return poll() }
    var watched: [String: Int32] = [:]  // folder → watch descriptor
    var folders: [Int32: String] = [:]
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | 0x4 /* IN_ATTRIB */)
    while true {
      // The folders to watch follow the files, which change as pins and inputs change.
      let wanted = Set(files.withLock { $0 }.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path })
      for folder in wanted where watched[folder] == nil {
        let descriptor = inotify_add_watch(fd, folder, mask)
        if descriptor >= 0 {
          watched[folder] = descriptor
          folders[descriptor] = folder
        }
      }
      // Wait for events, at most 200 ms, so that new folders are picked up.
      var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      guard Glibc.poll(&poller, 1, 200) > 0 else { continue }
      var changed: Set<String> = []
      // A save is often several events (write, rename, attributes): gather them for 30 ms.
      var waitMore = true
      while waitMore {
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count > 0 {
          buffer.withUnsafeBytes { raw in
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= count {
              let event = raw.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
              let nameStart = offset + MemoryLayout<inotify_event>.size
              let nameBytes = raw[nameStart..<(nameStart + Int(event.len))].prefix { $0 != 0 }
              if let folder = folders[event.wd], !nameBytes.isEmpty {
                changed.insert(folder + "/" + String(decoding: nameBytes, as: UTF8.self))
              }
              offset = nameStart + Int(event.len)
            }
          }
        }
        var again = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        waitMore = Glibc.poll(&again, 1, 30) > 0
      }
      let relevant = files.withLock { $0 }.intersection(changed)
      if !relevant.isEmpty { onChange(relevant) }
    }
  }
  #else
  private func run() { poll() }
  #endif

  /// The portable way: modification times compared every 100 ms.
  private func poll() {
    var stamps: [String: Date] = [:]
    while true {
      let current = files.withLock { $0 }
      var changed: Set<String> = []
      for path in current {
        let stamp = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
        if let known = stamps[path], known != stamp ?? .distantPast { changed.insert(path) }
        stamps[path] = stamp ?? .distantPast
      }
      if !changed.isEmpty { onChange(changed) }
      usleep(100_000)
    }
  }
}
