import Dispatch
import FileTransactions
import Foundation
import Synchronization
internal import SystemPackage
public import WaterflowRender
import WaterflowScene

/// A shot set written to a folder: the images, `shots.json` (what was taken, for merging
/// slices and for tools) and `index.html` (the contact sheet).
///
/// The folder is replaced as a whole: the images are written into a staging folder beside it,
/// which is renamed over the old set only when every image is written, so a failed or
/// interrupted run leaves the previous set as it was.
public struct ShotRun: Sendable {
  /// One image in the folder.
  public struct Entry: Hashable, Sendable {
    /// `LOCALE/APPEARANCE/DEVICE/SCENE`.
    public var name: String
    /// The shot's place in the whole set, which merged slices are sorted by.
    public var index: Int
    public var locale: String
    public var appearance: String
    public var device: String
    public var scene: String
    public var width: Int
    public var height: Int
    /// The caption drawn above the device, if any.
    public var caption: String?

    /// The image's path in the folder.
    public var path: String { name + ".png" }
  }

  /// The shot file the set came from, as given.
  public var shotFile: String
  /// The slice this folder holds (`1/1` for a whole set).
  public var shard: String
  /// The number of shots in the whole set (all slices).
  public var total: Int
  /// The images, in set order.
  public var entries: [Entry]
  /// The locales' text directions, by name, so the sheet can set them.
  public var rightToLeftLocales: [String]
  /// Why each image the shots showed could not be loaded, by path (see
  /// `ImageStore.warnings(for:)`): the cells show a loading placeholder. Not kept in the folder.
  public var imageFailures: [String: String] = [:]

  /// The marker of a shot folder, and the files a shot folder consists of (so that replacing
  /// one never deletes a user's other files).
  static func kind(locales: Set<String>) -> StagedFolder.Kind {
    StagedFolder.Kind(marker: "shots.json") { name in
      name == "shots.json" || name == "index.html" || locales.contains(name)
    }
  }

  // MARK: - Taking a set

  /// Takes shots into a folder, on `jobs` threads, reporting progress after each image.
  ///
  /// - Throws: ``ShotSetError`` for the first shot that fails, or a folder that cannot be
  ///   written; the folder is then as it was.
  public static func take(
    _ shots: [Shot], of file: ShotFile, to directory: String, jobs: Int = 1,
    shard: ShotShard? = nil, total: Int? = nil, fontPath: String = Renderer.defaultFontPath,
    progress: @escaping @Sendable (_ done: Int, _ total: Int) -> Void = { _, _ in }
  ) throws(ShotSetError) -> ShotRun {
    let scenes = try ShotScenes(for: shots)
    // Captions are looked up before anything is drawn: a missing key fails the set at once.
    var captions: [String?] = []
    for shot in shots { captions.append(try scenes.caption(of: shot, in: file)) }

    let places = Dictionary(
      file.shots.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
    return try replacing(directory, locales: Set(file.locales.map(\.name))) { (folder: String) throws(ShotSetError) in
      let failures = try render(
        shots, of: file, scenes: scenes, into: folder, jobs: jobs, fontPath: fontPath,
        progress: progress)
      var run = ShotRun(
        shotFile: file.path, shard: shard?.description ?? "1/1", total: total ?? shots.count,
        entries: zip(shots, captions).map { shot, caption in
          Entry(
            name: shot.name, index: places[shot.name] ?? 0, locale: shot.locale.name,
            appearance: shot.appearance.rawValue, device: shot.device.name, scene: shot.scene.name,
            width: shot.device.pixelWidth, height: shot.device.pixelHeight, caption: caption)
        },
        rightToLeftLocales: file.locales.map(\.name).filter { StringTable.isRightToLeft(locale: $0) })
      run.imageFailures = failures
      return run
    }
  }

  /// Writes a new set into a staging folder beside `directory` (`body` writes the images and
  /// returns the run), adds its index, and swaps it in; on any error the staging folder goes
  /// and `directory` stays as it was.
  private static func replacing(
    _ directory: String, locales: Set<String>, _ body: (String) throws(ShotSetError) -> ShotRun
  ) throws(ShotSetError) -> ShotRun {
    // The old set's locale folders are the set's own too: replaced, not carried over.
    let old = try? Self(contentsOf: directory + "/shots.json")
    let owned = locales.union(old?.entries.map(\.locale) ?? [])
    let staged: StagedFolder
    do { staged = try StagedFolder(replacing: directory, kind: kind(locales: owned)) } catch {
      throw ShotSetError(error.description)
    }
    do throws(ShotSetError) {
      let run = try body(staged.path)
      try run.writeIndex(in: staged.path)
      do { try staged.commit() } catch { throw ShotSetError(error.description) }
      return run
    } catch {
      staged.discard()
      throw error
    }
  }

  private static func render(
    _ shots: [Shot], of file: ShotFile, scenes: ShotScenes, into folder: String, jobs: Int,
    fontPath: String, progress: @escaping @Sendable (Int, Int) -> Void
  ) throws(ShotSetError) -> [String: String] {
    for dir in Set(shots.map { folder + "/" + FilePath($0.relativePath).removingLastComponent().string }) {
      do { try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true) } catch {
        throw ShotSetError("Cannot create the folder '\(dir)': \(error.localizedDescription)")
      }
    }
    struct State {
      var next = 0
      var done = 0
      var failure: ShotSetError?
      var imageFailures: [String: String] = [:]
    }
    let state = Mutex(State())
    let workers = max(1, min(jobs, shots.count))
    // Each worker has its own camera: a renderer caches texts and images and is not shared. Its
    // photos are decoded once for all of them.
    let decodes = SharedImageDecodes()
    DispatchQueue.concurrentPerform(iterations: workers) { _ in
      let camera: ShotCamera
      // Kept canvases: a set's shots come in a few sizes, and a new canvas costs page faults.
      do {
        camera = ShotCamera(
          file: file, scenes: scenes,
          renderer: try Renderer(fontPath: fontPath, images: ImageStore(sharing: decodes)),
          canvases: ShotCanvases())
      } catch {
        state.withLock { if $0.failure == nil { $0.failure = ShotSetError("\(error)") } }
        return
      }
      // What this worker's images could not load, whichever way the loop ends.
      defer {
        let failed = camera.imageFailures
        state.withLock { $0.imageFailures.merge(failed, uniquingKeysWith: ImageStore.earlierFailure) }
      }
      while true {
        let index: Int? = state.withLock { s in
          guard s.failure == nil, s.next < shots.count else { return nil }
          defer { s.next += 1 }
          return s.next
        }
        guard let index else { return }
        let shot = shots[index]
        do throws(ShotSetError) {
          let png = try camera.png(of: shot)
          do throws(FileWriteError) {
            try writeAtomically(png, to: folder + "/" + shot.relativePath, sweeping: false)
          } catch { throw ShotSetError(error.description) }
        } catch {
          state.withLock { if $0.failure == nil { $0.failure = error } }
          return
        }
        let done = state.withLock { s in
          s.done += 1
          return s.done
        }
        progress(done, shots.count)
      }
    }
    if let failure = state.withLock({ $0.failure }) { throw failure }
    return state.withLock { $0.imageFailures }
  }

  // MARK: - Merging slices

  /// Joins the folders that `--shard` slices wrote into one set: their images and one contact
  /// sheet.
  ///
  /// - Throws: ``ShotSetError`` when a folder is not a shot folder, the slices come from
  ///   different shot files, a shot is in two slices, or the output cannot be written.
  public static func merge(_ folders: [String], to directory: String) throws(ShotSetError) -> ShotRun {
    var runs: [(folder: String, run: ShotRun)] = []
    for folder in folders {
      do { runs.append((folder, try Self(contentsOf: folder + "/shots.json"))) } catch {
        throw ShotSetError("\(folder) is not a folder of shots: \(error.description)")
      }
    }
    guard let first = runs.first?.run else { throw ShotSetError("Give the folders of the slices to merge.") }
    var seen: [String: String] = [:]
    var entries: [(folder: String, entry: Entry)] = []
    for (folder, run) in runs {
      guard run.shotFile == first.shotFile, run.total == first.total else {
        throw ShotSetError(
          "\(folder) holds shots of \(run.shotFile) (\(run.total) in all), and \(runs[0].folder) of \(first.shotFile) (\(first.total)): merge slices of one set")
      }
      for entry in run.entries {
        if let other = seen[entry.name] {
          throw ShotSetError("\(entry.name) is in both \(other) and \(folder): each slice must be a different --shard")
        }
        seen[entry.name] = folder
        entries.append((folder, entry))
      }
    }
    return try replacing(directory, locales: Set(entries.map(\.entry.locale))) {
      (folder: String) throws(ShotSetError) in
      for (source, entry) in entries {
        let from = source + "/" + entry.path
        let to = folder + "/" + entry.path
        do {
          try FileManager.default.createDirectory(
            atPath: FilePath(to).removingLastComponent().string, withIntermediateDirectories: true)
          try FileManager.default.copyItem(atPath: from, toPath: to)
        } catch {
          throw ShotSetError("Cannot copy \(from): \(error.localizedDescription)")
        }
      }
      return ShotRun(
        shotFile: first.shotFile, shard: entries.count == first.total ? "1/1" : "partial",
        total: first.total,
        entries: entries.map(\.entry).sorted { $0.index < $1.index },
        rightToLeftLocales: Array(Set(runs.flatMap(\.run.rightToLeftLocales))).sorted())
    }
  }
}
