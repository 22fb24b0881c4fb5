import Cairo
import Foundation
import Testing
import WaterflowGolden

/// Font digests kept between processes: the same values as hashing, reused only for a file
/// whose stamp is unchanged, and never a reason to fail.
@Suite struct FontDigestsTests {}

// MARK: - Fixtures

private let boldPath = URL(fileURLWithPath: Font.defaultPath).deletingLastPathComponent()
  .appendingPathComponent("DejaVuSans-Bold.ttf").path

/// A copy of a font file in a fresh folder, so that its path and stamp are this test's alone.
private func copiedFont(_ source: String = Font.defaultPath) throws -> (folder: String, path: String) {
  let folder = try GoldenTestSupport.temporaryDirectory()
  let path = folder + "/font.ttf"
  try FileManager.default.copyItem(atPath: source, toPath: path)
  return (folder, path)
}

/// The cache file's line for a font, as `FontDigests` writes it.
private func line(for font: Font, digest: String) -> String {
  let s = font.fileStamp
  return "\(digest) \(s.device) \(s.inode) \(s.size) \(s.modified) \(s.changed) \(font.path)"
}

private let header = "waterflow font digests 1"

extension FontDigestsTests {
  // MARK: - Values

  @Test func digests_AreTheFilesHashes_AndAreStoredOnePerFile() throws {
    let (folder, path) = try copiedFont()
    let font = try Font(contentsOfFile: path)
    let cache = FontDigests(directory: folder + "/cache", settleTime: 0)
    #expect(cache.digests(of: [font]) == [font.fileHash])
    let text = try String(contentsOfFile: folder + "/cache/" + FontDigests.fileName, encoding: .utf8)
    #expect(text == header + "\n" + line(for: font, digest: font.fileHash) + "\n")
  }

  /// The fingerprint's value does not depend on where its digests come from.
  @Test func fingerprint_IsTheSame_WithTheCacheAsWithout() throws {
    let folder = try GoldenTestSupport.temporaryDirectory()
    let stack = try FontStack(paths: FontStack.defaultPaths)
    let hashed = (stack.fonts + stack.faces).map {
      "\(URL(fileURLWithPath: $0.path).lastPathComponent) \($0.fileHash)"
    }
    for digests in [FontDigests(directory: nil), FontDigests(directory: folder, settleTime: 0)] {
      let fingerprint = FontStackFingerprint(fonts: stack, digests: digests)
      #expect(fingerprint.fontHash == stack.fonts[0].fileHash)
      #expect(fingerprint.fonts == hashed.joined(separator: ", "))
    }
  }

  // MARK: - Reuse

  /// A stored digest answers for the same path and stamp without reading the font (a planted
  /// digest comes back); once the file is written again, it is hashed.
  @Test func aStoredDigest_AnswersForTheSameStamp_NotAfterAWrite() throws {
    let (folder, path) = try copiedFont()
    let font = try Font(contentsOfFile: path)
    let planted = "fnv1a64:0123456789abcdef"
    try Data((header + "\n" + line(for: font, digest: planted) + "\n").utf8)
      .write(to: URL(fileURLWithPath: folder + "/" + FontDigests.fileName))
    let cache = FontDigests(directory: folder, settleTime: 0)
    #expect(cache.digests(of: [font]) == [planted])

    // Written in place: the same path and inode, another size and change time.
    try Data(contentsOf: URL(fileURLWithPath: boldPath)).write(to: URL(fileURLWithPath: path))
    let rewritten = try Font(contentsOfFile: path)
    #expect(rewritten.fileStamp != font.fileStamp)
    #expect(cache.digests(of: [rewritten]) == [rewritten.fileHash])
    #expect(rewritten.fileHash != planted)
    // The path's old line is replaced by the new one.
    let text = try String(contentsOfFile: folder + "/" + FontDigests.fileName, encoding: .utf8)
    #expect(text == header + "\n" + line(for: rewritten, digest: rewritten.fileHash) + "\n")
  }

  /// A file changed moments ago may change again within the clock's tick and keep its stamp:
  /// it is hashed, not stored.
  @Test func aFileYoungerThanTheSettleTime_IsNotStored() throws {
    let (folder, path) = try copiedFont()
    let font = try Font(contentsOfFile: path)
    let cache = FontDigests(directory: folder + "/cache", settleTime: 3600)
    #expect(cache.digests(of: [font]) == [font.fileHash])
    #expect(!FileManager.default.fileExists(atPath: folder + "/cache/" + FontDigests.fileName))
  }

  // MARK: - Failures

  @Test func anUnwritableFolder_OnlyCostsTheHashing() throws {
    let (folder, path) = try copiedFont()
    try Data("a file".utf8).write(to: URL(fileURLWithPath: folder + "/file"))
    let font = try Font(contentsOfFile: path)
    let cache = FontDigests(directory: folder + "/file/cache", settleTime: 0)
    #expect(cache.digests(of: [font]) == [font.fileHash])
  }

  @Test func aDamagedCacheFile_IsIgnored() throws {
    let (folder, path) = try copiedFont()
    let font = try Font(contentsOfFile: path)
    try Data((header + "\nfnv1a64:zz 1 2\n\u{0}garbage\n").utf8)
      .write(to: URL(fileURLWithPath: folder + "/" + FontDigests.fileName))
    let cache = FontDigests(directory: folder, settleTime: 0)
    #expect(cache.digests(of: [font]) == [font.fileHash])
  }

  // MARK: - Where

  @Test func cacheFolder_FollowsXDG_ThenHome() {
    #expect(FontDigests.userCacheDirectory(["XDG_CACHE_HOME": "/c", "HOME": "/h"]) == "/c/waterflow")
    // A relative XDG_CACHE_HOME is ignored, as the specification says.
    #expect(FontDigests.userCacheDirectory(["XDG_CACHE_HOME": "c", "HOME": "/h"]) == "/h/.cache/waterflow")
    #expect(FontDigests.userCacheDirectory([:]) == nil)
  }
}
