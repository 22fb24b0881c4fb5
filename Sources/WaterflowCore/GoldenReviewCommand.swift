import WaterflowCommandLine
import ArgumentParser
import FileTransactions
import Foundation
import Synchronization
import WaterflowGolden
import WaterflowGoldenReport
import WaterflowRender
import WaterflowReview

struct GoldenReviewCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "review",
    abstract: "Review failed goldens in the browser and accept them one by one or a cause at a time.",
    discussion: """
      Runs the check (or reads the folders `golden check --results` wrote) and serves a review \
      page on 127.0.0.1 only. The first line printed is `Review at http://127.0.0.1:PORT/?token=TOKEN`; \
      the token is new each run, and every request needs it. Accepting writes a golden as \
      `waterflow golden record NAME` does, and refuses one whose files changed since the check. \
      Keys on the page: j/k move, a accept, g accept the group, s skip, u undo, 1-4 views, ? help. \
      Ctrl-C stops the review once an accept in flight is written. Refused when CI is set. \
      Exit status: 0 when stopped or when nothing failed, 2 for errors.
      """)

  @Argument(help: "Golden names or folders to check (default: all in the manifest).")
  var names: [String] = []
  @Option(help: "The manifest; goldens live in its folder (default: Golden/manifest.json, or the one the results name).")
  var manifest: String?
  @Option(
    help: ArgumentHelp(
      "Review what `golden check --results DIR` saved instead of checking again; give every shard's folder.",
      valueName: "dir"))
  var results: [String] = []
  @Option(help: "The port on 127.0.0.1; 0 takes any free one.")
  var port = 0
  @Flag(name: .customLong("no-open"), help: "Do not open a browser (none is opened without a display either).")
  var noOpen = false
  @Option(help: "A TrueType/OpenType font file tried first for each character (default: the manifest's).")
  var font: String?
  @Option(help: "Where failures leave their images (default: $WATERFLOW_GOLDEN_ARTIFACTS or .build/golden-artifacts).")
  var artifacts: String?
  @Option(help: "Check this many goldens at once (default: the number of cores).")
  var jobs: Int?
  @Flag(name: .customLong("per-stack"), help: "Goldens kept per font stack, as for `golden check`.")
  var perStack = false
  @Flag(help: "Skip goldens whose inputs hash as they did at their last pass, as `golden check --changed` does.")
  var changed = false

  func validate() throws {
    guard (0...65535).contains(port) else {
      throw ValidationError("The value '\(port)' is invalid for '--port <port>': use 0 to 65535.")
    }
    if !results.isEmpty && changed {
      throw ValidationError("--changed skips goldens of a check; with --results nothing is checked again.")
    }
    if !results.isEmpty && !names.isEmpty {
      throw ValidationError("Give golden names or --results, not both: the results already hold the goldens they checked.")
    }
  }

  func run() throws {
    try exitingWithTwo {
      let environment = ProcessInfo.processInfo.environment
      if GoldenConfiguration.isCIEnvironment(environment) {
        throw CLIError(
          "Refusing to start the review: CI is set (CI=\(environment["CI"] ?? "")), and goldens are never accepted in CI. Review on a development machine, or read the report `golden check --report` writes.")
      }
      let stopping = ReviewStop()
      stopping.install()
      try serve(stopping: stopping)
    }
  }

  private func serve(stopping: ReviewStop) throws {
    var options = try GoldenRunOptions.parse([])
    options.names = names
    options.font = font
    options.artifacts = artifacts
    options.jobs = jobs
    options.perStack = perStack
    options.changed = changed
    var configuration = try GoldenConfiguration.fromEnvironment(ProcessInfo.processInfo.environment, defaultMode: .never)
    if let artifacts { configuration.artifactsDirectory = artifacts }

    let records: [GoldenRecord]
    let manifest: GoldenManifest
    let store: GoldenStore
    let renderer: Renderer
    let fingerprint: FontStackFingerprint
    var images: [String: String] = [:]
    if results.isEmpty {
      options.manifest = self.manifest ?? options.manifest
      let run = try options.perform(defaultMode: .never, verb: "check", reviewing: true)
      records = run.records
      manifest = run.manifest
      store = run.store
      fingerprint = run.fingerprint
      do { renderer = try Renderer(fontPath: run.fontPath) } catch { throw CLIError("\(error)") }
      for record in records { for key in record.review?.images ?? [] { images[key] = run.info.artifacts + "/" + key } }
    } else {
      let (info, found, home) = try GoldenResultsFolder.loadAll(results)
      records = found
      options.manifest = self.manifest ?? info.manifest
      manifest = try GoldenManifest(contentsOf: options.manifest)
      (renderer, fingerprint, store) = try options.openStore(of: manifest, configuration: configuration)
      for record in records {
        if record.failed && record.review == nil {
          throw CLIError(
            "\(home[record.index] ?? results[0])/goldens/\(GoldenResultsFolder.fileName(record.index)): review: missing; the folder was written by a waterflow without `golden review`. Write it again with `golden check --results`.")
        }
        for key in record.review?.images ?? [] { images[key] = (home[record.index] ?? "") + "/artifacts/" + key }
      }
    }
    let items = records.compactMap(\.review)
    guard !items.isEmpty else {
      emit("All \(records.count) golden\(records.count == 1 ? "" : "s") pass: nothing to review.")
      return
    }
    let files = images
    let review = GoldenReview(
      items: items, manifest: manifest, store: store, renderer: renderer, fingerprint: fingerprint,
      imageFile: { files[$0] },
      willWrite: { names in warn("accepting \(names.joined(separator: ", "))…") })
    stopping.reviewing(review)
    let site = ReviewSite(review: review, images: images, title: options.manifest)
    let server = ReviewServer(site: site)
    do { _ = try server.start(port: port) } catch { throw CLIError("\(error)") }
    emit("Review at \(site.address)")
    let groups = review.groups.count
    warn(
      "\(items.count) failure\(items.count == 1 ? "" : "s") of \(records.count) golden\(records.count == 1 ? "" : "s") in \(groups) cause\(groups == 1 ? "" : "s"); press ? on the page for its keys, Ctrl-C here to stop.")
    if !noOpen { openBrowser(site.address) }
    // The server's tasks and the signal handler do the rest; the handler exits.
    dispatchMain()
  }
}

/// What SIGINT, SIGTERM and SIGHUP do to a review: during the check, stop at once (exit 128 +
/// the signal); once serving, let an accept in flight finish, refuse new ones, say what was
/// accepted, and exit 0.
final class ReviewStop: @unchecked Sendable {
  private let review = Mutex<GoldenReview?>(nil)
  /// Set once by `install`, before any handler can run; kept so the sources live.
  private var sources: [any DispatchSourceSignal] = []

  func install() {
    var made: [any DispatchSourceSignal] = []
    for signal in [SIGINT, SIGTERM, SIGHUP] {
      Foundation.signal(signal, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: signal, queue: .global())
      source.setEventHandler { [self] in stop(signal) }
      source.resume()
      made.append(source)
    }
    sources = made
  }

  func reviewing(_ review: GoldenReview) {
    self.review.withLock { $0 = review }
  }

  private func stop(_ signal: Int32) {
    guard let review = review.withLock({ $0 }) else {
      warn("waterflow: interrupted during the check; nothing was accepted.")
      exit(128 + signal)
    }
    // An accept held at a pause point (tests) goes on now, and is waited for.
    PausePoint.resume()
    let accepted = review.close()
    warn(
      "Review stopped: \(accepted.isEmpty ? "nothing" : accepted.sorted().joined(separator: ", ")) accepted.")
    exit(0)
  }
}
