internal import Cairo
internal import Foundation
public import WaterflowComparison
internal import WaterflowInputs
internal import WaterflowJSON
internal import Synchronization
public import WaterflowRender

/// Everything a golden's pixels depend on, each with a digest: its manifest entry, the comparison
/// options, the font stack, the binary, and every file its drawing read (the scene, its data,
/// imports, images, string tables, the shot file).
///
/// Recorded beside the golden (`NAME.inputs.json`) when it passes or is recorded, so that
/// `golden check --changed` can skip a golden whose inputs hash as they did then: drawing is a
/// function of these inputs alone (the order harness of the tests holds it to that), so the
/// same inputs give the same pixels, which passed. The files are found by drawing, not by
/// guessing: each reader notes what it opens (`InputRecorder`), before any cache answers.
public struct GoldenInputs: Equatable, Sendable {
  /// One input: what it is (`entry`, `options`, `binary`, `libraries`, `font NAME`,
  /// `file PATH`, with PATH relative to the manifest's folder) and its digest or value.
  public struct Input: Equatable, Sendable {
    public var name: String
    public var value: String

    /// An input of a name and a digest or value.
    public init(name: String, value: String) {
      self.name = name
      self.value = value
    }
  }

  /// The inputs, sorted by name.
  public var inputs: [Input]

  /// What the binary is, as `golden check` compares it: its version and the renderer's
  /// revision. Raise ``rendererRevision`` with every change to what drawing produces.
  public static func binary(version: String) -> String {
    "\(version), renderer revision \(rendererRevision)"
  }

  /// The revision of what the renderer draws: raised whenever the same inputs draw other pixels,
  /// so that `--changed` checks every golden again after such a change.
  public static let rendererRevision = 2

  /// Why a golden with no inputs kept runs under `--changed`.
  public static let noneKept = "no inputs kept: it has not passed since inputs were kept"
  /// Why a golden whose inputs are those of its last pass runs under `--changed` all the same.
  public static let failedLastTime = "it failed last time"

  /// The digest of all the inputs together.
  public var digest: String {
    // The FNV-1a hash of "NAME=VALUE\n" for each input in turn, fed without joining them.
    var d = FNV1a64()
    for input in inputs {
      d.add(input.name.utf8)
      d.add(UInt8(ascii: "="))
      d.add(input.value.utf8)
      d.add(UInt8(ascii: "\n"))
    }
    return d.text
  }

  /// The inputs of a golden drawn from an entry, that read `files`.
  ///
  /// - Parameters:
  ///   - entry: The manifest entry (its name, position, options, masks and tolerance).
  ///   - files: The files its drawing read, as the readers opened them.
  ///   - context: The run's: the manifest's folder (paths are kept relative to it, and the
  ///     entry's description leaves it out, so a clone elsewhere hashes the same), the options,
  ///     the binary and the font stack.
  public init(entry: GoldenManifest.Entry, files: [String], context: Context) {
    var all = context.fixed
    all.append(Input(name: "entry", value: Self.digest(of: entry, removing: context.prefix)))
    for path in Set(files) {
      let (relative, digest) = context.file(path)
      all.append(Input(name: "file " + relative, value: digest))
    }
    inputs = all.sorted { $0.name < $1.name }
  }

  /// The inputs every golden of a run shares: the binary, the options, the libraries and fonts.
  static func fixed(fingerprint: FontStackFingerprint, options: String, binary: String) -> [Input] {
    var all: [Input] = [
      Input(name: "binary", value: binary),
      Input(name: "options", value: fnv1a64Hex(options.utf8)),
      Input(
        name: "libraries",
        value:
          "cairo \(fingerprint.cairo), pixman \(fingerprint.pixman), freetype \(fingerprint.freetype), pango \(fingerprint.pango), harfbuzz \(fingerprint.harfbuzz), fontconfig \(fingerprint.fontconfig)"
      ),
    ]
    for font in fingerprint.fonts.split(separator: ",") {
      let parts = font.trimmingCharacters(in: .whitespaces).split(separator: " ")
      guard parts.count >= 2 else { continue }
      all.append(Input(name: "font " + parts.dropLast().joined(separator: " "), value: String(parts.last!)))
    }
    if fingerprint.fonts.isEmpty {
      all.append(Input(name: "font " + fingerprint.font, value: fingerprint.fontHash))
    }
    return all
  }

  /// Inputs given one by one.
  public init(inputs: [Input]) { self.inputs = inputs.sorted { $0.name < $1.name } }

  /// A path relative to a folder, without `.` and `..` but those that climb out of it: the
  /// same file is one input whichever way a scene, a shot file or a data file named it.
  static func relative(_ path: String, to folder: String) -> String {
    let cwd = FileManager.default.currentDirectoryPath
    func components(_ p: String) -> [String] {
      let absolute = p.hasPrefix("/") ? p : cwd + "/" + p
      var out: [String] = []
      for part in absolute.split(separator: "/") where part != "." {
        if part == ".." { if !out.isEmpty { out.removeLast() } } else { out.append(String(part)) }
      }
      return out
    }
    let file = components(path)
    let base = components(folder.isEmpty ? "." : folder)
    var common = 0
    while common < min(file.count, base.count), file[common] == base[common] { common += 1 }
    // Outside the folder's root (another volume, /usr/share/fonts): kept absolute.
    guard common > 0 else { return "/" + file.joined(separator: "/") }
    return (Array(repeating: "..", count: base.count - common) + file[common...]).joined(separator: "/")
  }

  /// The digest of an entry, without the manifest's folder in its paths.
  ///
  /// Field by field, as bytes: describing the entry as text (its options through reflection,
  /// then its numbers) was most of what inputs cost a check. A manifest entry sets only these;
  /// a test counts the fields of each type, so one added later cannot be left out unnoticed.
  static func digest(of entry: GoldenManifest.Entry, removing prefix: String) -> String {
    var d = FNV1a64()
    d.add(field: entry.name)
    d.add(field: !prefix.isEmpty && entry.scenePath.hasPrefix(prefix) ? String(entry.scenePath.dropFirst(prefix.count)) : entry.scenePath)
    switch entry.position {
    case .offset(let y, let step): d.add(0, y, step)
    case .sequence(let from, let to, let step): d.add(1, from, to, step)
    }
    d.add(entry.options.scale, entry.options.debug ? 1 : 0, entry.overview ? 1 : 0)
    let o = entry.diffOptions
    d.add(o.threshold, o.includeAA ? 1 : 0, o.alpha, o.diffMask ? 1 : 0, o.checkerboard ? 1 : 0)
    for color in [o.aaColor, o.diffColor, o.diffColorAlt, o.maskColor] {
      if let c = color { d.add(1, Double(c.red), Double(c.green), Double(c.blue)) } else { d.add(0) }
    }
    d.add(Double(o.masks.count))
    for m in o.masks { d.add(Double(m.x), Double(m.y), Double(m.width), Double(m.height)) }
    d.add(Double(entry.tolerance.maxMismatchedPixels), entry.tolerance.maxMismatchedRatio)
    d.add(Double(entry.maskedCells.count))
    for cell in entry.maskedCells { d.add(Double(cell)) }
    // A shot's look comes from its shot file, an input file of its own.
    if let shot = entry.screenshot { d.add(field: shot.shot.name) }
    d.add(field: entry.appearance?.rawValue ?? "")
    return d.text
  }

  /// What differs from earlier inputs, one phrase each: `file ../Assets/Feeds/notes.jsonl`,
  /// `font DejaVuSans.ttf`, `binary 0.1.0, renderer revision 1 → 0.2.0, renderer revision 1`.
  ///
  /// - Complexity: O(n + m) in the inputs, and the parts of each changed data file.
  ///
  /// - Parameters:
  ///   - old: The inputs kept at the golden's last pass.
  ///   - folder: The manifest's folder: when given, a changed data file (JSON, JSON lines, CSV)
  ///     whose earlier content's parts are in the cache is named down to its parts,
  ///     `file ../Assets/Feeds/notes.jsonl: line 6 likes`.
  public func changes(since old: GoldenInputs, in folder: String? = nil) -> [String] {
    let before = Dictionary(old.inputs.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a })
    let now = Dictionary(inputs.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a })
    var out: [String] = []
    for input in inputs {
      guard let was = before[input.name] else {
        out.append("\(input.name) (new)")
        continue
      }
      guard was != input.value else { continue }
      switch input.name {
      case "binary", "libraries": out.append("\(input.name) \(was) → \(input.value)")
      default:
        if input.value == FileDigests.missing {
          out.append("\(input.name) (missing)")
        } else if let folder, input.name.hasPrefix("file "), was != FileDigests.missing,
          let found = GoldenInputParts.changes(
            in: Self.path(of: input.name, in: folder), from: was, to: input.value),
          !found.parts.isEmpty
        {
          out.append(
            "\(input.name): \(found.parts.joined(separator: ", "))\(found.more > 0 ? " and \(found.more) more" : "")")
        } else {
          out.append(input.name)
        }
      }
    }
    for input in old.inputs where now[input.name] == nil { out.append("\(input.name) (no longer read)") }
    return out
  }

  // MARK: - The file beside the golden

  /// The file's contents: one input per line, so a diff of it in review reads plainly.
  var fileContents: [UInt8] {
    Array(
      JSONWriter.text { w in
        w.write("{\"digest\": ")
        w.write(quoting: digest)
        w.write(", \"inputs\": [\n")
        for (k, input) in inputs.enumerated() {
          w.write(k == 0 ? "  [" : ",\n  [")
          w.write(quoting: input.name)
          w.write(", ")
          w.write(quoting: input.value)
          w.write("]")
        }
        w.write("\n]}\n")
      }.utf8)
  }

  /// Reads the inputs recorded beside a golden; nil when there are none or the file is damaged
  /// (either way, the golden is checked).
  static func read(from path: String) -> GoldenInputs? {
    guard let data = FileManager.default.contents(atPath: path),
      let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
      let list = object["inputs"] as? [[String]]
    else { return nil }
    var inputs: [Input] = []
    for pair in list {
      guard pair.count == 2 else { return nil }
      inputs.append(Input(name: pair[0], value: pair[1]))
    }
    let read = GoldenInputs(inputs: inputs)
    // A file edited by hand, or cut short, is not trusted.
    guard object["digest"] as? String == read.digest else { return nil }
    return read
  }

  /// Starts recording the files the work reads, runs it, and returns its result with them.
  public static func recordingFiles<T, E: Error>(_ work: () throws(E) -> T) throws(E) -> (T, [String]) {
    let recorder = InputRecorder()
    let result: Result<T, E> = InputRecorder.$current.withValue(recorder) {
      do throws(E) { return .success(try work()) } catch { return .failure(error) }
    }
    return (try result.get(), recorder.paths)
  }
}

/// File digests, worked out once per file content in a process: a run's goldens share their
/// scenes, data and photos. Keyed by path and `FileStamp` (the key font digests are kept under),
/// so an edited or replaced file is hashed again.
final class FileDigests: Sendable {
  static let shared = FileDigests()
  /// The digest of a file that cannot be read.
  static let missing = "missing"

  private struct Key: Hashable {
    var path: String
    var stamp: FileStamp
  }
  private let digests = Mutex<[Key: String]>([:])

  func digest(of path: String) -> String {
    guard let stamp = FileStamp(path: path) else { return Self.missing }
    let key = Key(path: path, stamp: stamp)
    if let known = digests.withLock({ $0[key] }) { return known }
    guard let data = FileManager.default.contents(atPath: path) else { return Self.missing }
    let digest = fnv1a64Hex(data)
    digests.withLock { $0[key] = digest }
    return digest
  }
}

extension GoldenInputs {
  /// What a run adds to each golden's inputs: where paths are relative to, the run's options,
  /// the binary and the font stack, worked out once for all its goldens.
  public struct Context: Sendable {
    /// The manifest's folder.
    public let folder: String
    /// The inputs every golden shares.
    let fixed: [Input]
    /// The folder with a slash, which entry descriptions leave out.
    let prefix: String
    private let files = Files()

    /// Creates a context.
    ///
    /// - Parameters:
    ///   - folder: The manifest's folder.
    ///   - options: The run's settings that change what is compared (per stack, the font file).
    ///   - binary: ``GoldenInputs/binary(version:)``.
    ///   - fingerprint: The font stack.
    public init(folder: String, options: String, binary: String, fingerprint: FontStackFingerprint) {
      self.folder = folder
      prefix = folder.isEmpty ? "" : (folder.hasSuffix("/") ? folder : folder + "/")
      fixed = GoldenInputs.fixed(fingerprint: fingerprint, options: options, binary: binary)
    }

    /// A file's path relative to the folder, and its digest, worked out once per path in a
    /// run: a run sees each file as it was when a golden first read it (a stat per file and
    /// golden was most of what inputs cost a check).
    func file(_ path: String) -> (relative: String, digest: String) {
      if let known = files.known.withLock({ $0[path] }) { return known }
      let file = (GoldenInputs.relative(path, to: folder), FileDigests.shared.digest(of: path))
      files.known.withLock { $0[path] = file }
      return file
    }
  }

  private final class Files: Sendable {
    let known = Mutex<[String: (relative: String, digest: String)]>([:])
  }

  /// The files among the inputs, as paths to open.
  func filePaths(relativeTo folder: String) -> [String] {
    inputs.compactMap { input in
      input.name.hasPrefix("file ") ? Self.path(of: input.name, in: folder) : nil
    }
  }

  /// The path to open for a `file PATH` input.
  static func path(of name: String, in folder: String) -> String {
    let path = String(name.dropFirst("file ".count))
    return path.hasPrefix("/") || folder.isEmpty ? path : folder + "/" + path
  }
}

extension GoldenStore {
  /// The file beside a golden that holds its inputs at its last pass.
  public func inputsPath(for name: String) -> String {
    directory + "/" + name + ".inputs.json"
  }

  /// Checks an entry as ``check(_:renderer:fingerprint:)`` does, and keeps its inputs: written
  /// beside the golden when it passes or is recorded, left as they were when it fails (its
  /// rendering in the artifacts folder makes it checked next time), never written in CI.
  ///
  /// - Parameters:
  ///   - entry: The manifest entry.
  ///   - renderer: The renderer; its font must be the one in `fingerprint`.
  ///   - fingerprint: This machine's font stack.
  ///   - context: The manifest's folder, the run's options and the binary.
  ///   - skipUnchanged: Skip the golden, without drawing it, when its inputs hash as they did
  ///     at its last pass and its files exist (`--changed`).
  /// - Returns: The outcome, and when `skipUnchanged` is set and the golden ran, why: the
  ///   inputs that changed since its last pass.
  public func check(
    _ entry: GoldenManifest.Entry, renderer: Renderer, fingerprint: FontStackFingerprint,
    inputs context: GoldenInputs.Context, skipUnchanged: Bool
  ) throws(GoldenError) -> (outcome: GoldenSequenceOutcome, ranBecause: [String]) {
    let path = inputsPath(for: entry.name)
    // Parsed only to skip or to say what changed; otherwise the file's bytes are compared.
    let old = skipUnchanged ? GoldenInputs.read(from: path) : nil
    func inputs(reading files: [String]) -> GoldenInputs {
      GoldenInputs(entry: entry, files: files, context: context)
    }
    let goldens = entry.goldenNames.map { self.path(for: $0) }
    // A failure leaves its rendering in the artifacts folder until the golden is checked again:
    // that, not the inputs file (which stays the last pass's), says it failed last time.
    let failedLastTime =
      skipUnchanged
      && !GoldenStore.files(of: entry.name, in: configuration.artifactsDirectory, kinds: ["actual.png"]).isEmpty
    if skipUnchanged, !failedLastTime, let old, goldens.allSatisfy(FileManager.default.fileExists(atPath:)),
      inputs(reading: old.filePaths(relativeTo: context.folder)) == old
    {
      let frames = goldens.enumerated().map { k, golden in
        GoldenOutcome.unchanged(
          name: entry.isSequence ? GoldenStore.frameName(entry.name, k, count: goldens.count) : entry.name,
          goldenPath: golden, tolerance: entry.tolerance)
      }
      return (
        GoldenSequenceOutcome(
          name: entry.name, offsets: [], frames: frames, isSequence: entry.isSequence), []
      )
    }
    var (outcome, files) = try GoldenInputs.recordingFiles { () throws(GoldenError) in
      try check(entry, renderer: renderer, fingerprint: fingerprint)
    }
    // The shot file was read with the manifest, before the recorder started.
    if let shot = entry.screenshot { files.append(shot.file.path) }
    let now = inputs(reading: files)
    var reasons: [String] = []
    if skipUnchanged {
      reasons = old.map { now.changes(since: $0, in: context.folder) } ?? [GoldenInputs.noneKept]
      if failedLastTime && reasons.isEmpty { reasons = [GoldenInputs.failedLastTime] }
    }
    // A failure leaves the last pass's inputs as they are: a later run skips only on those.
    if !configuration.isCI && !outcome.isFailure {
      // The file starts with its digest: when that is this run's, the file is this run's.
      let head = Array("{\"digest\": \"\(now.digest)\"".utf8)
      if Self.head(of: path, count: head.count) != head {
        try GoldenStore.writeFile(now.fileContents, to: path)
      }
      // The parts of what it read, for naming a field when one of these files changes.
      for input in now.inputs where input.name.hasPrefix("file ") {
        GoldenInputParts.keep(GoldenInputs.path(of: input.name, in: context.folder), digest: input.value)
      }
    }
    return (outcome, reasons)
  }
}

extension GoldenStore {
  /// The first bytes of a file (fewer when it is shorter), or nil when it cannot be read: the
  /// digest an inputs file starts with, without reading the rest.
  static func head(of path: String, count: Int) -> [UInt8]? {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes = [UInt8](repeating: 0, count: count)
    let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, count) }
    return n < 0 ? nil : Array(bytes.prefix(n))
  }
}
