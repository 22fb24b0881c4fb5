import Foundation
import Testing
import WaterflowTestSupport

@Suite struct CLITests {}

extension CLITests {
  // MARK: - Queries

  @Test func layout_json_givesTheReferenceFrames() throws {
    let r = try waterflow(["layout", "Assets/Scenes/reference.json", "--json"])
    #expect(r.status == 0)
    let json =
      try JSONSerialization.jsonObject(with: r.stdoutData) as! [String: Any]
    #expect(json["columns"] as? Int == 3)
    #expect(json["columnWidth"] as? Double == 115)
    let size = json["contentSize"] as! [String: Double]
    #expect(size["width"] == 375)
    let frames = json["frames"] as! [[String: Any]]
    #expect(frames.count == 100)
    let third = frames[3]
    #expect(third["index"] as? Int == 3)
    #expect(third["column"] as? Int == 2)
    #expect(third["x"] as? Double == 250)
    #expect(third["y"] as? Double == 95)
    #expect(third["height"] as? Double == 90)
    // The content ends at the tallest column's bottom plus the bottom margin.
    let bottom = frames.map { ($0["y"] as! Double) + ($0["height"] as! Double) }
      .max()!
    #expect(size["height"] == bottom + 10)
  }

  @Test func visible_json_listsTheOnScreenIndicesSorted() throws {
    let r = try waterflow([
      "visible", "Assets/Scenes/reference.json", "--offset", "300", "--json",
    ])
    #expect(r.status == 0)
    #expect(
      r.stdout
        == "{\"offset\": 300, \"indices\": [7,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30]}\n"
    )
  }

  @Test func tap_json_hitsACellOrNothing() throws {
    let hit = try waterflow([
      "tap", "Assets/Scenes/reference.json", "--offset", "0", "--at", "20,20",
      "--json",
    ])
    #expect(hit.stdout == "{\"index\": 0}\n")
    // x = 127 is in the 5-point gap between columns 0 and 1.
    let gap = try waterflow([
      "tap", "Assets/Scenes/reference.json", "--offset", "0", "--at", "127,50",
      "--json",
    ])
    #expect(gap.stdout == "{\"index\": null}\n")
    let bad = try waterflow([
      "tap", "Assets/Scenes/reference.json", "--at", "x", "--json",
    ])
    #expect(bad.status != 0)
    #expect(bad.stderr.contains("--at"))
  }

  @Test func trace_json_recordsEveryStepWithoutOverCreating() throws {
    let r = try waterflow([
      "trace", "Assets/Scenes/reference.json", "--from", "0", "--to", "1000",
      "--step", "100", "--json",
    ])
    #expect(r.status == 0)
    let steps =
      try JSONSerialization.jsonObject(with: r.stdoutData) as! [[String: Any]]
    #expect(steps.count == 11)
    #expect(
      steps.map { $0["offset"] as! Double }
        == stride(from: 0.0, through: 1000, by: 100).map { $0 })
    let created = steps.reduce(0) { $0 + ($1["created"] as! [Any]).count }
    let peak = steps.map { ($0["displayed"] as! [Any]).count }.max()!
    #expect(created <= peak)
    #expect(steps.dropFirst().contains { !($0["reused"] as! [Any]).isEmpty })
  }

  @Test func trace_script_replaysTheShopRefreshCycle() throws {
    let r = try waterflow([
      "trace", "Assets/Scenes/shop.json", "--script",
      "Assets/Scenes/shop-refresh.json", "--json",
    ])
    #expect(r.status == 0, "\(r.stderr)")
    let steps =
      try JSONSerialization.jsonObject(with: r.stdoutData) as! [[String: Any]]
    let events = steps.compactMap { $0["event"] as? String }
    #expect(
      events == ["load more 20", "jump 0", "refresh 10", "rotate 667x375", "rotate 375x667"])
  }

  @Test func everyCommand_printsTextWithoutJSON() throws {
    let layout = try waterflow(["layout", "Assets/Scenes/reference.json"])
    #expect(
      layout.stdout.hasPrefix(
        "100 items, 3 columns of 115 pt, content 375 × 3300 pt"))
    let visible = try waterflow([
      "visible", "Assets/Scenes/reference.json", "--offset", "300",
    ])
    #expect(visible.stdout == "offset 300: 23 on screen: 7, 9-30\n")
    let tap = try waterflow([
      "tap", "Assets/Scenes/reference.json", "--at", "20,20",
    ])
    #expect(tap.stdout == "cell 0\n")
    let trace = try waterflow([
      "trace", "Assets/Scenes/reference.json", "--to", "100",
    ])
    #expect(trace.stdout.contains("cells created in all"))
  }

  // MARK: - Bad input

  @Test(arguments: [
    ("{\"viewport\": {\"width\": -5}}", "viewport.width"),
    ("{\"viewport\": {\"width\": \"NaN\"}}", "viewport.width"),
    ("{\"columns\": 0}", "columns"),
    ("{\"columns\": \"three\"}", "columns"),
    (
      "{\"viewport\": {\"width\": 20000, \"height\": 100, \"scale\": 2}}",
      "viewport.width"
    ),
    ("{\"items\": {\"count\": 20000000, \"heights\": [10]}}", "items.count"),
    ("{\"items\": {\"heights\": [10]}}", "items.count"),
    ("{\"items\": [{\"height\": 10}, {\"w\": 3}]}", "items[1]"),
    ("{\"margins\": {\"top\": -1}}", "margins.top"),
    ("{\"colums\": 3}", "colums"),
    ("{\"viewport\": ", ""),
  ])
  func badScene_namesTheFileAndFieldAndWritesNothing(
    json: String, field: String
  ) throws {
    let dir = try temporaryDirectory()
    let path = try sceneFile(json, in: dir)
    let r = try waterflow(["render", path, "-o", dir + "/out.png"])
    #expect(r.status != 0)
    #expect(r.stderr.contains(path))
    if !field.isEmpty { #expect(r.stderr.contains(field + ":"), "\(r.stderr)") }
    #expect(r.stderr.split(separator: "\n").count <= 2, "one clear message")
    #expect(!FileManager.default.fileExists(atPath: dir + "/out.png"))
    let layout = try waterflow(["layout", path])
    #expect(layout.status != 0)
  }

  @Test func unreadableScene_isOneClearError() throws {
    let r = try waterflow(["layout", "/nonexistent/scene.json"])
    #expect(r.status != 0)
    #expect(r.stderr.contains("/nonexistent/scene.json"))
    #expect(r.stdout.isEmpty)
  }

  @Test func render_rejectsUnknownExtensionsAndUnwritablePaths() throws {
    let unknown = try waterflow([
      "render", "Assets/Scenes/reference.json", "-o", "/tmp/x.jpg",
    ])
    #expect(unknown.status != 0)
    #expect(unknown.stderr.contains(".png, .pdf or .svg"))
    let unwritable = try waterflow([
      "render", "Assets/Scenes/reference.json", "-o", "/nonexistent/dir/x.png",
    ])
    #expect(unwritable.status != 0)
    #expect(unwritable.stderr.contains("/nonexistent/dir"))
  }

  @Test func scroll_unknownExtension_isRefused_ButADotFolderWithASlashWorks()
    throws
  {
    let dir = try temporaryDirectory()
    let movie = try waterflow([
      "scroll", "Assets/Scenes/reference.json", "-o", dir + "/anim.mov",
      "--frames", "2",
      "--to", "100",
    ])
    #expect(movie.status != 0)
    #expect(movie.stderr.contains("anim.mov") && movie.stderr.contains(".mp4"))
    #expect(!FileManager.default.fileExists(atPath: dir + "/anim.mov"))
    let folder = try waterflow([
      "scroll", "Assets/Scenes/reference.json", "-o", dir + "/frames.v2/",
      "--frames", "2",
      "--to", "100",
    ])
    #expect(folder.status == 0, "\(folder.stderr)")
    #expect(
      FileManager.default.fileExists(atPath: dir + "/frames.v2/frame-0002.png"))
  }

  @Test func help_showsEachDefaultOnce() throws {
    let help = try waterflow(["scroll", "--help"])
    #expect(help.status == 0)
    // Lines wrap anywhere: compare with single spaces.
    let text = help.stdout.split(whereSeparator: \.isWhitespace).joined(
      separator: " ")
    // The font's name and "the number of cores" are the defaults, not a path or this machine's count.
    #expect(!text.contains("(default: /usr/share/fonts"), "\(text)")
    #expect(text.contains("(default: the number of cores)."))
    #expect(!text.contains("cores). (default:"))
  }

  @Test func render_surfaceBeyondCairosLimit_failsClearly() throws {
    let dir = try temporaryDirectory()
    let path = try sceneFile(
      "{\"viewport\": {\"width\": 375, \"height\": 15000, \"scale\": 2}, \"buffer\": 2000, \"items\": {\"count\": 10, \"heights\": [50]}}",
      in: dir)
    let r = try waterflow(["render", path, "--debug", "-o", dir + "/out.png"])
    #expect(r.status != 0)
    #expect(r.stderr.contains("32767"))
    #expect(!FileManager.default.fileExists(atPath: dir + "/out.png"))
  }

  @Test func render_corruptImage_failsAndMissingImageWarns() throws {
    let dir = try temporaryDirectory()
    try Data("not a png".utf8).write(
      to: URL(fileURLWithPath: dir + "/broken.png"))
    let corrupt = try sceneFile(
      "{\"items\": [{\"w\": 10, \"h\": 10, \"image\": \"broken.png\"}]}",
      in: dir, named: "corrupt.json")
    let r = try waterflow(["render", corrupt, "-o", dir + "/out.png"])
    #expect(r.status != 0)
    #expect(r.stderr.contains("broken.png"))
    #expect(!FileManager.default.fileExists(atPath: dir + "/out.png"))
    let missing = try sceneFile(
      "{\"items\": [{\"w\": 10, \"h\": 10, \"image\": \"gone.png\"}]}", in: dir,
      named: "missing.json")
    let m = try waterflow(["render", missing, "-o", dir + "/out.png"])
    #expect(m.status == 0)
    #expect(m.stderr.contains("warning:") && m.stderr.contains("gone.png"))
    #expect(FileManager.default.fileExists(atPath: dir + "/out.png"))
  }

  // MARK: - Outputs

  @Test func render_isByteIdenticalAcrossProcessesAndHostileFontconfig() throws
  {
    let dir = try temporaryDirectory()
    // A fontconfig file that would swap every family for a different font, were it consulted.
    let hostile = dir + "/fonts.conf"
    try Data(
      """
      <?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd">
      <fontconfig><match target="pattern"><edit name="family" mode="assign" binding="strong">
      <string>DejaVu Serif</string></edit></match>
      <match target="font"><edit name="hinting" mode="assign"><bool>true</bool></edit>
      <edit name="hintstyle" mode="assign"><const>hintfull</const></edit>
      <edit name="antialias" mode="assign"><bool>false</bool></edit></match></fontconfig>
      """.utf8
    ).write(to: URL(fileURLWithPath: hostile))
    for ext in ["png", "pdf", "svg"] {
      let a = try waterflow([
        "render", "Assets/Scenes/shop.json", "--offset", "120", "-o",
        dir + "/a." + ext,
      ])
      let b = try waterflow(
        [
          "render", "Assets/Scenes/shop.json", "--offset", "120", "-o",
          dir + "/b." + ext,
        ],
        environment: [
          "FONTCONFIG_FILE": hostile, "LANG": "C", "TZ": "Asia/Shanghai",
        ])
      #expect(a.status == 0 && b.status == 0)
      let first = try Data(contentsOf: URL(fileURLWithPath: dir + "/a." + ext))
      let second = try Data(contentsOf: URL(fileURLWithPath: dir + "/b." + ext))
      #expect(first == second, "\(ext) differs between processes")
    }
  }

  @Test func render_pdf_isValidWithRealText() throws {
    let dir = try temporaryDirectory()
    let r = try waterflow([
      "render", "Assets/Scenes/shop.json", "--offset", "0", "-o",
      dir + "/shop.pdf",
    ])
    #expect(r.status == 0)
    let info = try ExternalProgram.pdfinfo.run([dir + "/shop.pdf"]).stdout
    #expect(
      info.split(separator: "\n").contains {
        $0.hasPrefix("Pages:") && $0.hasSuffix(" 1")
      })
    #expect(info.contains("2000"), "the fixed creation date")
    let text = try ExternalProgram.pdftotext.run([dir + "/shop.pdf", "-"]).stdout
    #expect(text.contains("29.90") && text.contains("Mogujie"))
    let raster = try ExternalProgram.pdftoppm.run(
      ["-png", "-r", "36", dir + "/shop.pdf", dir + "/page"])
    #expect(raster.status == 0, "\(raster.output)")
    #expect(FileManager.default.fileExists(atPath: dir + "/page-1.png"))
  }

  @Test func render_svg_isValidXMLAndRasterises() throws {
    let dir = try temporaryDirectory()
    let r = try waterflow([
      "render", "Assets/Scenes/reference.json", "-o", dir + "/ref.svg",
    ])
    #expect(r.status == 0)
    let lint = try ExternalProgram.xmllint.run(["--noout", dir + "/ref.svg"])
    #expect(lint.status == 0, "\(lint.output)")
    let convert = try ExternalProgram.rsvgConvert.run(
      [dir + "/ref.svg", "-o", dir + "/ref.png"])
    #expect(convert.status == 0, "\(convert.output)")
  }

  @Test func render_overviewAndDebug_produceImages() throws {
    let dir = try temporaryDirectory()
    let o = try waterflow([
      "render", "Assets/Scenes/reference.json", "--offset", "600", "--step",
      "100", "--overview", "-o", dir + "/o.png",
    ])
    #expect(o.status == 0)
    let d = try waterflow([
      "render", "Assets/Scenes/reference.json", "--offset", "600", "--debug",
      "--scale", "1", "-o", dir + "/d.png",
    ])
    #expect(d.status == 0)
    let png = try Data(contentsOf: URL(fileURLWithPath: dir + "/d.png"))
    // IHDR: width and height are big-endian at bytes 16…23.
    let width = png[16..<20].reduce(0) { $0 << 8 | Int($1) }
    let height = png[20..<24].reduce(0) { $0 << 8 | Int($1) }
    #expect(width == 375 && height == 667)
  }
}

// MARK: - Offsets and outputs at the edges

extension CLITests {
  /// A negative offset is a position (a pull-to-refresh overscroll), not an option name.
  @Test func negativeNumbers_areValues_InEveryCommand() throws {
    let dir = try temporaryDirectory()
    let scene = "Assets/Scenes/reference.json"
    let runs: [[String]] = [
      ["render", scene, "--offset", "-200", "-o", dir + "/above.png"],
      ["render", scene, "--offset", "-200", "--step", "50", "-o", dir + "/stepped.png"],
      ["tap", scene, "--offset", "-200", "--at", "20,220"],
      ["trace", scene, "--from", "-100", "--to", "-50", "--step", "50"],
      ["scroll", scene, "--from", "600", "--velocity", "-3000", "--curve", "decelerate",
       "--fps", "5", "--scale", "1", "-o", dir + "/fling/"],
      ["scroll", scene, "--from", "300", "--to", "-100", "--frames", "2", "--scale", "1",
       "-o", dir + "/up/"],
    ]
    for arguments in runs {
      let r = try waterflow(arguments)
      #expect(r.status == 0, "\(arguments): \(r.stderr)")
    }
    // 200 pt above the content, a tap 220 pt down the viewport lands 20 pt into cell 0.
    #expect(try waterflow(runs[2]).stdout.contains("cell 0"))
    let visible = try waterflow(["visible", scene, "--offset", "-200", "--json"])
    let json = try JSONSerialization.jsonObject(with: visible.stdoutData) as! [String: Any]
    #expect(json["offset"] as? Double == -200)
    // A negative step is still refused, with the step's own message.
    let step = try waterflow(["trace", scene, "--to", "100", "--step", "-5"])
    #expect(step.status != 0 && step.stderr.contains("--step must be a positive number"))
  }

  @Test func offsetPastTheContent_drawsButWarnsWithTheExtent() throws {
    let dir = try temporaryDirectory()
    let far = try waterflow([
      "render", "Assets/Scenes/reference.json", "--offset", "99999", "-o", dir + "/far.png",
    ])
    #expect(far.status == 0)
    #expect(FileManager.default.fileExists(atPath: dir + "/far.png"))
    // reference.json is 3,300 pt tall; its last cell ends at 3,290, its first starts at 10.
    #expect(
      far.stderr.contains(
        "no cell is on screen at offset 99999: the content is 3300 pt tall, and cells show at "
          + "offsets above -657 and below 3290"), "\(far.stderr)")
    let above = try waterflow(["visible", "Assets/Scenes/reference.json", "--offset", "-700"])
    #expect(above.status == 0 && above.stderr.contains("at offset -700"))
    // Offsets that show a cell, even a sliver of one, say nothing.
    for offset in ["0", "-650", "3289"] {
      let r = try waterflow(["visible", "Assets/Scenes/reference.json", "--offset", offset])
      #expect(r.status == 0 && r.stderr.isEmpty, "\(offset): \(r.stderr)")
    }
  }

  @Test func folderOutput_inAMissingDirectory_isRefusedAndCreatesNothing() throws {
    let dir = try temporaryDirectory()
    let r = try waterflow([
      "scroll", "Assets/Scenes/reference.json", "--to", "100", "--frames", "2",
      "-o", dir + "/missing/out/",
    ])
    #expect(r.status != 0)
    #expect(r.stderr.contains("the directory '\(dir)/missing' does not exist"), "\(r.stderr)")
    #expect(!FileManager.default.fileExists(atPath: dir + "/missing"))
    // The last component alone is created, as before.
    let ok = try waterflow([
      "scroll", "Assets/Scenes/reference.json", "--to", "100", "--frames", "2", "--scale", "1",
      "-o", dir + "/out/",
    ])
    #expect(ok.status == 0, "\(ok.stderr)")
    #expect(FileManager.default.fileExists(atPath: dir + "/out/frame-0002.png"))
  }

  @Test func sceneWithoutRoomForItsColumns_isRefused() throws {
    let dir = try temporaryDirectory()
    let path = try sceneFile(
      #"{"margins": {"left": 200, "right": 200}, "items": [{"w": 1, "h": 1}]}"#, in: dir)
    let r = try waterflow(["render", path, "-o", dir + "/x.png"])
    #expect(r.status != 0)
    #expect(r.stderr.contains("\(path): margins: left 200 + right 200 leave no room"))
    #expect(!FileManager.default.fileExists(atPath: dir + "/x.png"))
  }
}

// MARK: - Modules

/// Every module stays small enough to read whole: under 3,000 lines of Swift, the tool's own
/// executable included. A module that outgrows it gives a role a module of its own.
@Suite struct ModuleSizeTests {
  @Test func everyModuleIsUnder3000Lines() throws {
    let sources = packageRoot + "/Sources"
    var sizes: [String: Int] = [:]
    for module in try FileManager.default.contentsOfDirectory(atPath: sources) {
      guard let files = FileManager.default.enumerator(atPath: sources + "/" + module) else { continue }
      for case let file as String in files where file.hasSuffix(".swift") {
        let text = try String(contentsOfFile: "\(sources)/\(module)/\(file)", encoding: .utf8)
        sizes[module, default: 0] += text.split(separator: "\n", omittingEmptySubsequences: false).count - 1
      }
    }
    #expect(sizes["WaterflowScene", default: 0] > 1000, "the count found the modules: \(sizes)")
    let large = sizes.filter { $0.value >= 3000 }
    #expect(large.isEmpty, "over 3,000 lines: \(large)")
  }
}

// MARK: - Set-up

/// Every program a test starts comes from a Debian package that `make test` installs.
@Suite struct SetupTests {
  /// The packages listed in the Makefile's APT_PACKAGES (continued over backslashed lines).
  static func makefilePackages(_ variable: String = "APT_PACKAGES") throws -> Set<String> {
    let makefile = try String(contentsOfFile: packageRoot + "/Makefile", encoding: .utf8)
    let lines = makefile.components(separatedBy: "\n")
    guard let start = lines.firstIndex(where: { $0.hasPrefix(variable + " ") }) else {
      return []
    }
    var words: [Substring] = []
    for line in lines[start...] {
      words += line.split(whereSeparator: { $0 == " " || $0 == "\t" })
      if !line.hasSuffix("\\") { break }
    }
    return Set(words.dropFirst(2).map(String.init).filter { $0 != "\\" })
  }

  @Test(arguments: ExternalProgram.all)
  func makefile_InstallsThePackageOf(_ program: ExternalProgram) throws {
    let packages = try Self.makefilePackages()
    #expect(packages.contains("pkg-config"), "APT_PACKAGES was not found in the Makefile")
    #expect(
      packages.contains(program.debianPackage),
      "\(program.name) needs Debian's \(program.debianPackage), missing from APT_PACKAGES")
  }

  /// A program that imports Python packages (python3 with junitparser) needs them from PyPI.
  @Test(arguments: ExternalProgram.all.filter { !$0.pipPackages.isEmpty })
  func makefile_InstallsThePipPackagesOf(_ program: ExternalProgram) throws {
    let packages = try Self.makefilePackages("PIP_PACKAGES")
    for package in program.pipPackages {
      #expect(
        packages.contains(package),
        "\(program.name) needs \(package) from PyPI, missing from the Makefile's PIP_PACKAGES")
    }
  }

  @Test func missingProgram_FailsNamingItsDebianPackage() {
    let ghost = ExternalProgram(name: "waterflow-no-such-tool", debianPackage: "ghost-utils")
    let error = #expect(throws: MissingProgram.self) { try ghost.run(["--version"]) }
    #expect(error?.description.contains("apt-get install ghost-utils") == true)
  }
}

// MARK: - Layout files

/// `layout --json` output is a layout file that draws, traces and answers exactly as its scene.
@Suite struct LayoutFileRoundTripTests {
  static let samples = [
    "reference", "reference-buffered", "shop", "sections", "horizontal-rtl", "empty",
  ]

  @Test(arguments: samples)
  func layoutJSON_drawsAndTracesLikeItsScene(_ name: String) throws {
    let dir = try temporaryDirectory()
    let scene = "Assets/Scenes/\(name).json"
    let dump = try waterflow(["layout", scene, "--json"])
    #expect(dump.status == 0, "\(dump.stderr)")
    let file = dir + "/\(name)-layout.json"
    try dump.stdoutData.write(to: URL(fileURLWithPath: file))
    // The saved output reads back as a layout file and prints the same frames again.
    let again = try waterflow(["layout", file, "--json"])
    #expect(again.status == 0, "\(again.stderr)")
    let first = try JSONSerialization.jsonObject(with: dump.stdoutData) as! [String: Any]
    let second = try JSONSerialization.jsonObject(with: again.stdoutData) as! [String: Any]
    func frames(_ json: [String: Any]) -> [[String: Double]] {
      (json["frames"] as! [[String: Any]]).map { f in
        ["x", "y", "width", "height", "index"].reduce(into: [:]) { $0[$1] = f[$1] as? Double }
      }
    }
    #expect(frames(first) == frames(second))
    for offset in ["0", "450", "1100"] {
      for step in ["0", "50"] {
        let a = try waterflow(["render", scene, "--offset", offset, "--step", step, "-o", dir + "/a.png"])
        let b = try waterflow(["render", file, "--offset", offset, "--step", step, "-o", dir + "/b.png"])
        #expect(a.status == 0 && b.status == 0, "\(a.stderr)\(b.stderr)")
        let same = try Data(contentsOf: URL(fileURLWithPath: dir + "/a.png"))
          == Data(contentsOf: URL(fileURLWithPath: dir + "/b.png"))
        #expect(same, "\(name) at \(offset), step \(step): the pixels differ")
      }
    }
    for command in [
      ["trace", "--from", "0", "--to", "1500", "--step", "50", "--json"],
      ["visible", "--offset", "450", "--json"],
      ["tap", "--offset", "300", "--at", "200,150", "--json"],
    ] {
      let a = try waterflow([command[0], scene] + command.dropFirst())
      let b = try waterflow([command[0], file] + command.dropFirst())
      #expect(a.status == b.status && a.stdout == b.stdout, "\(name): \(command[0]) differs")
    }
  }

  @Test func handMadeLayout_rendersWithImagesFromItsOwnFolder() throws {
    let dir = try temporaryDirectory()
    // Run from another folder: the images resolve from the layout file's folder, not from here.
    let r = try runProgram(
      atPath: waterflowBinary,
      ["render", packageRoot + "/Assets/Scenes/feed-layout.json", "--offset", "0", "-o", "feed.png"],
      in: dir)
    #expect(r.status == 0 && r.stderr.isEmpty, "\(r.stderr)")
    let visible = try waterflow(["visible", "Assets/Scenes/feed-layout.json", "--offset", "1450"])
    // Frames are listed out of index order in the file; visibility is by index all the same.
    #expect(visible.stdout == "offset 1450: 16 on screen: 12-27\n", "\(visible.stdout)")
    // This file has sections, so its frames cannot continue: the scroll goes on and says why.
    let script = try sceneFile(
      #"{"fps": 10, "segments": [{"scroll": {"to": 1554, "duration": 0.2}}, {"loadMore": {"count": 5}}]}"#,
      in: dir, named: "s.json")
    let scroll = try waterflow([
      "scroll", "Assets/Scenes/feed-layout.json", "--script", script, "--scale", "1", "-o", dir + "/f/",
    ])
    #expect(scroll.status == 0, "\(scroll.stderr)")
    #expect(scroll.stderr.contains("load more skipped: a layout file's frames continue only with one section"), "\(scroll.stderr)")
    let traceScript = try sceneFile(
      #"[{"scroll": {"to": 300, "step": 100}}, {"append": 5}, {"prepend": 2}]"#, in: dir,
      named: "t.json")
    let trace = try waterflow(["trace", "Assets/Scenes/feed-layout.json", "--script", traceScript])
    #expect(trace.status == 0, "\(trace.stderr)")
    // The same dialect, the same rule: the segments are skipped with a note, as in a scroll.
    #expect(trace.stderr.contains("load more skipped: a layout file's frames continue only with one section"), "\(trace.stderr)")
    #expect(trace.stderr.contains("refresh skipped: a layout file's frames continue only with one section"), "\(trace.stderr)")
    #expect(trace.stderr.contains(#"{"append": 5} is the old form of {"loadMore""#), "\(trace.stderr)")
  }
}

// MARK: - Golden facts

@Suite struct GoldenFactsCLITests {
  @Test func facts_AreTheSameBytesFromEveryProcess_AndExplainAFailureInJSON() throws {
    let dir = try temporaryDirectory()
    let scene = try String(contentsOfFile: packageRoot + "/Assets/Scenes/reference.json", encoding: .utf8)
    try scene.write(toFile: dir + "/scene.json", atomically: true, encoding: .utf8)
    try FileManager.default.createDirectory(atPath: dir + "/G", withIntermediateDirectories: true)
    try #"{"goldens": [{"name": "ref", "scene": "../scene.json", "offset": 300, "step": 50}]}"#
      .write(toFile: dir + "/G/manifest.json", atomically: true, encoding: .utf8)
    var recorded: [Data] = []
    for _ in 0..<2 {
      let r = try waterflow(["golden", "record", "--manifest", dir + "/G/manifest.json"], environment: ["CI": ""])
      #expect(r.status == 0, "\(r.stderr)")
      recorded.append(try Data(contentsOf: URL(fileURLWithPath: dir + "/G/ref.facts.json")))
    }
    #expect(recorded[0] == recorded[1], "two processes wrote different facts")
    #expect(String(decoding: recorded[0], as: UTF8.self).hasPrefix("{\"frames\": [\n  {\"offset\": 300, \"cells\": [\n    {\"index\": "))

    // A 3-pt larger top margin moves every cell down 3 pt.
    try scene.replacingOccurrences(of: "\"top\": 10", with: "\"top\": 13")
      .write(toFile: dir + "/scene.json", atomically: true, encoding: .utf8)
    let check = try waterflow([
      "golden", "check", "--manifest", dir + "/G/manifest.json", "--json", "--artifacts", dir + "/a",
    ])
    #expect(check.status == 1)
    let line = try JSONSerialization.jsonObject(with: check.stdoutData) as! [String: Any]
    let changes = try #require(line["changes"] as? [String: Any])
    #expect(changes["verdict"] as? String == "layout")
    let moved = try #require(changes["moved"] as? [[String: Any]])
    #expect(!moved.isEmpty)
    for move in moved {
      let from = move["from"] as! [String: Double]
      let to = move["to"] as! [String: Double]
      #expect(to["y"]! - from["y"]! == 3 && to["x"] == from["x"] && move["index"] is Int)
    }
    for key in ["appeared", "disappeared", "content", "reuse"] {
      #expect(changes[key] is [Any], "\(key) is missing")
    }
    let text = try waterflow([
      "golden", "check", "--manifest", dir + "/G/manifest.json", "--artifacts", dir + "/a",
    ])
    #expect(text.stdout.contains("FAIL      ref  layout changed: "), "\(text.stdout)")
  }
}

// MARK: - pixelmatch's options on the command line

@Suite struct DiffOptionsCLITests {
  /// Every fixture case of pixelmatch 7.2.0's own tests, run through `waterflow diff`: the count,
  /// and the diff image byte for byte.
  @Test func everyPixelmatchFixture_IsReproducedByTheCLI() throws {
    let fixtures = packageRoot + "/Tests/WaterflowGoldenTests/Fixtures/pixelmatch"
    let data = try Data(contentsOf: URL(fileURLWithPath: fixtures + "/cases.json"))
    let cases = (try JSONSerialization.jsonObject(with: data) as! [[String: Any]])
      .filter { $0["kind"] as? String == "fixture" }
    #expect(cases.count == 12)
    let dir = try temporaryDirectory()
    for c in cases {
      let id = c["id"] as! String
      let options = c["options"] as? [String: Any] ?? [:]
      var arguments = [
        "diff", fixtures + "/" + (c["a"] as! String), fixtures + "/" + (c["b"] as! String),
        "--json", "-o", dir + "/\(id).png",
      ]
      func rgb(_ key: String) -> String? {
        (options[key] as? [Int]).map { $0.map(String.init).joined(separator: ",") }
      }
      if let t = options["threshold"] as? Double { arguments += ["--threshold", String(t)] }
      if let a = options["alpha"] as? Double { arguments += ["--alpha", String(a)] }
      if options["includeAA"] as? Bool == true { arguments.append("--include-aa") }
      if options["diffMask"] as? Bool == true { arguments.append("--diff-mask") }
      for (key, flag) in [
        ("aaColor", "--aa-color"), ("diffColor", "--diff-color"), ("diffColorAlt", "--diff-color-alt"),
      ] {
        if let value = rgb(key) { arguments += [flag, value] }
      }
      let run = try waterflow(arguments)
      let json = try JSONSerialization.jsonObject(with: run.stdoutData) as! [String: Any]
      #expect(json["mismatched"] as? Int == c["expected_mismatch"] as? Int, "\(id): \(run.stderr)")
      guard let expected = c["expected_diff"] as? String else { continue }
      let same = try waterflow([
        "diff", fixtures + "/" + expected, dir + "/\(id).png", "--threshold", "0", "--json",
      ])
      let compared = try JSONSerialization.jsonObject(with: same.stdoutData) as! [String: Any]
      #expect(compared["identical"] as? Bool == true, "\(id): the diff image differs from \(expected)")
    }
  }

  @Test func maxDiffRatio_Alone_IsTheOnlyLimit() throws {
    let fixtures = packageRoot + "/Tests/WaterflowGoldenTests/Fixtures/pixelmatch"
    // 1a/1b differ in 106 of 131,072 pixels (0.08%) at the default threshold.
    let pair = [fixtures + "/1a.png", fixtures + "/1b.png"]
    #expect(try waterflow(["diff"] + pair).status == 1, "no limit given: exact")
    #expect(try waterflow(["diff"] + pair + ["--max-diff-ratio", "0.01"]).status == 0)
    #expect(try waterflow(["diff"] + pair + ["--max-diff-ratio", "0.0001"]).status == 1)
    #expect(
      try waterflow(["diff"] + pair + ["--max-diff-ratio", "0.01", "--max-diff-pixels", "10"]).status == 1,
      "both given: both apply")
    let bad = try waterflow(["diff"] + pair + ["--diff-color", "255,0"])
    #expect(bad.status == 64 && bad.stderr.contains("'--diff-color <r,g,b>'"))
  }
}

// MARK: - The UIKit example

/// The example app of `Tests/Examples/FeedApp` (its own layout code, written against UIKit),
/// built and tested as a consumer builds it: a package depending on Waterflow by path, whose
/// test target uses the UIKit module only off Apple's UI platforms. Its goldens are its own.
@Suite struct ExampleAppTests {
  @Test func theFeedAppBuildsAndItsGoldensPass() throws {
    let example = packageRoot + "/Tests/Examples/FeedApp"
    let scratch = packageRoot + "/.build/examples/FeedApp"
    let build = try runProgram(
      atPath: "/usr/bin/env", ["swift", "build", "--build-tests", "--package-path", example, "--scratch-path", scratch])
    try #require(build.status == 0, "the example did not build:\n\(build.output.suffix(4000))")
    let test = try runProgram(
      atPath: "/usr/bin/env", ["swift", "test", "--skip-build", "--package-path", example, "--scratch-path", scratch],
      environment: ProcessInfo.processInfo.environment.merging(["WATERFLOW_RECORD": "never"]) { $1 })
    #expect(test.status == 0, "\(test.output.suffix(4000))")
    #expect(test.output.contains("Test run with 3 tests"), "\(test.output.suffix(2000))")
  }
}

// MARK: - A light dependency

@Suite struct LightDependencyTests {
  /// Resolves a package that uses `product` of Waterflow, and returns the packages it fetched.
  func fetched(for product: String, traits: String = "") throws -> [String] {
    let dir = try temporaryDirectory()
    try FileManager.default.createDirectory(
      atPath: dir + "/Sources/App", withIntermediateDirectories: true)
    try """
      // swift-tools-version: 6.1
      import PackageDescription
      let package = Package(
        name: "Consumer",
        dependencies: [.package(path: "\(packageRoot)"\(traits))],
        targets: [
          .executableTarget(
            name: "App", dependencies: [.product(name: "\(product)", package: "\(URL(fileURLWithPath: packageRoot).lastPathComponent)")])
        ])
      """.write(toFile: dir + "/Package.swift", atomically: true, encoding: .utf8)
    try "print(0)\n".write(toFile: dir + "/Sources/App/main.swift", atomically: true, encoding: .utf8)
    // `swift` itself is the toolchain the tests run on; env finds it on PATH.
    let resolve = try runProgram(atPath: "/usr/bin/env", ["swift", "package", "resolve"], in: dir)
    try #require(resolve.status == 0, "swift package resolve failed:\n\(resolve.output)")
    return try FileManager.default.contentsOfDirectory(atPath: dir + "/.build/checkouts").sorted()
  }

  @Test(arguments: ["WaterflowLayout", "WaterflowView", "WaterflowRender", "WaterflowGolden"])
  func aLibrary_FetchesNeitherSnapshotTestingNorSwiftSyntax(product: String) throws {
    let packages = try fetched(for: product)
    // Resolution really ran: the CLI's argument parser is a dependency of the package.
    #expect(packages.contains("swift-argument-parser"), "\(packages)")
    #expect(!packages.contains("swift-snapshot-testing"), "\(packages)")
    #expect(!packages.contains("swift-syntax"), "\(packages)")
    // `make docs`'s plugin is a dependency no target uses: consumers never fetch it.
    #expect(!packages.contains("swift-docc-plugin"), "\(packages)")
    #expect(!packages.contains("swift-docc-symbolkit"), "\(packages)")
  }

  /// An HTTP server package once made every command load libcurl (through FoundationNetworking)
  /// and 25 more libraries: 5 ms of each start. The dynamic loader lists what the binary loads.
  @Test func theCommandLineTool_LoadsNoNetworkingLibrary() throws {
    // waterflow-core: the launcher in front of it loads no drawing library (LauncherTests).
    let run = try runProgram(
      atPath: waterflowCoreBinary, ["--help"], environment: ["LD_TRACE_LOADED_OBJECTS": "1"])
    #expect(run.stdout.contains("libcairo"), "the loader listed nothing: \(run.stdout)")
    #expect(!run.stdout.contains("libcurl"), "\(run.stdout)")
    #expect(!run.stdout.contains("FoundationNetworking"), "\(run.stdout)")
  }

  @Test func theSnapshotTestingTrait_BringsTheStrategyItsDependency() throws {
    let packages = try fetched(for: "WaterflowSnapshotTesting", traits: #", traits: ["SnapshotTesting"]"#)
    #expect(packages.contains("swift-snapshot-testing"), "\(packages)")
  }
}

// MARK: - Fonts for goldens

@Suite struct GoldenFontTests {
  static let bold = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"

  @Test func anotherFont_OnTheCommandLineOrInTheManifest_IsADrawingChange() throws {
    // fonts-dejavu-core (installed by the Makefile) has the bold face beside the regular one.
    let flag = try waterflow(["golden", "check", "reference/top", "--font", Self.bold, "--artifacts", try temporaryDirectory()])
    #expect(flag.status == 1)
    #expect(flag.stdout.contains("reference/top  drawing changed; layout, content and reuse are identical"), "\(flag.stdout)")

    let dir = try temporaryDirectory()
    let manifest = try String(contentsOfFile: packageRoot + "/Golden/manifest.json", encoding: .utf8)
      .replacingOccurrences(of: "\"../Assets/", with: "\"\(packageRoot)/Assets/")
      .replacingOccurrences(of: "{\n  \"unmanaged\"", with: "{\n  \"font\": \"\(Self.bold)\", \"unmanaged\"")
    try manifest.write(toFile: dir + "/manifest.json", atomically: true, encoding: .utf8)
    try FileManager.default.copyItem(atPath: packageRoot + "/Golden/reference", toPath: dir + "/reference")
    try FileManager.default.copyItem(
      atPath: packageRoot + "/Golden/fingerprint.json", toPath: dir + "/fingerprint.json")
    let key = try waterflow([
      "golden", "check", "reference/top", "--manifest", dir + "/manifest.json", "--artifacts", dir + "/a",
    ])
    #expect(key.status == 1 && key.stdout.contains("drawing changed"), "\(key.stdout)\(key.stderr)")

    let missing = try waterflow(["golden", "check", "reference/top", "--font", "/nonexistent/font.ttf"])
    #expect(missing.status == 2 && missing.stderr.contains("'/nonexistent/font.ttf' does not exist"))
  }
}
