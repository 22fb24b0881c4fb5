internal import Foundation

/// What tells a file's contents apart without reading them: its device and inode, its size, and
/// its modification and status-change times to the nanosecond.
///
/// Two stamps that are equal are taken as the same bytes; this is the key under which font
/// digests are kept between processes (`FontDigests` in WaterflowComparison). The status-change
/// time is in the key because a program can set the modification time back (`touch -d`,
/// `cp -p`, `tar -x`) but not that one: any write, rename onto the path or `chmod` moves it.
package struct FileStamp: Hashable, Sendable {
  /// The device the file is on.
  package var device: UInt64
  /// The file's inode on that device: a file replaced by a rename has another.
  package var inode: UInt64
  /// The size in bytes.
  package var size: Int64
  /// The modification time, in nanoseconds since 1970.
  package var modified: Int64
  /// The status-change time (content, name or metadata), in nanoseconds since 1970.
  package var changed: Int64

  /// Creates a stamp from its parts, as a cache file stores them.
  package init(device: UInt64, inode: UInt64, size: Int64, modified: Int64, changed: Int64) {
    self.device = device
    self.inode = inode
    self.size = size
    self.modified = modified
    self.changed = changed
  }

  /// The stamp of what `fstat` or `stat` returned.
  init(_ status: stat) {
    #if canImport(Darwin)
      let (m, c) = (status.st_mtimespec, status.st_ctimespec)
    #else
      let (m, c) = (status.st_mtim, status.st_ctim)
    #endif
    self.init(
      device: UInt64(truncatingIfNeeded: status.st_dev),
      inode: UInt64(truncatingIfNeeded: status.st_ino), size: Int64(status.st_size),
      modified: Int64(m.tv_sec) * 1_000_000_000 + Int64(m.tv_nsec),
      changed: Int64(c.tv_sec) * 1_000_000_000 + Int64(c.tv_nsec))
  }

  /// The stamp of the file at `path` now (following links), or nil when it cannot be read.
  package init?(path: String) {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    self.init(status)
  }
}
