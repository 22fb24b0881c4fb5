import FileTransactions
import Foundation
import Testing

@Suite struct AtomicFileTests {}

extension AtomicFileTests {
  @Test func writeAtomically_WritesTheBytes_AndLeavesNoTemporaryFile() throws {
    let directory = try makeTemporaryDirectory()
    let path = directory + "/out.bin"
    try writeAtomically([1, 2, 3], to: path)
    try writeAtomically([4, 5], to: path)  // replaces
    #expect(
      try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) == [4, 5])
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory) == [
        "out.bin"
      ])
    let mode =
      try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions]
      as? Int
    #expect(
      mode.map { $0 & 0o044 } == 0o044,
      "readable by others, like an ordinary file")
  }

  @Test func writeAtomically_MissingDirectory_ThrowsNamingThePath() {
    let path = "/nonexistent-waterflow-dir/frame.png"
    let error = #expect(throws: FileWriteError.self) {
      try writeAtomically([0], to: path)
    }
    #expect(error?.path == path)
    #expect(error?.description.contains(path) == true)
    #expect(error?.description.contains("does not exist") == true)
  }

  @Test func writeAtomically_ParentIsAFile_ThrowsNamingThePath() throws {
    let file = try makeTemporaryDirectory() + "/plain"
    try Data([0]).write(to: URL(fileURLWithPath: file))
    let path = file + "/frame.png"
    let error = #expect(throws: FileWriteError.self) {
      try writeAtomically([0], to: path)
    }
    #expect(error?.description.contains(path) == true)
    #expect(error?.description.contains("not a directory") == true)
  }

  @Test func writeAtomically_UnwritableDirectory_ThrowsNamingThePath() {
    // /proc refuses new files even for root, unlike a chmod-ed directory.
    let path = "/proc/waterflow-frame.png"
    let error = #expect(throws: FileWriteError.self) {
      try writeAtomically([0], to: path)
    }
    #expect(error?.description.contains(path) == true)
  }

  @Test func atomicFile_Discarded_LeavesTheOldFileAndNoTemporary() throws {
    let directory = try makeTemporaryDirectory()
    let path = directory + "/trace.csv"
    try writeAtomically(Array("old\n".utf8), to: path)
    do {
      let file = try AtomicFile(path: path)
      file.write("new, but never committed\n")
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: directory).count == 2)
    }
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "old\n")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["trace.csv"])
  }

  @Test func temporaryName_SaysWhoseItIs() throws {
    let directory = try makeTemporaryDirectory()
    let file = try AtomicFile(path: directory + "/a.mp4")
    defer { file.discard() }
    let name = (file.temporaryPath as NSString).lastPathComponent
    #expect(name.hasPrefix(".a.mp4.waterflow-tmp-\(getpid())-"))
  }
}

// MARK: - Sweeping

extension AtomicFileTests {
  /// pid 2147483646 is far above Linux's pid_max, so no process has it: a killed job's leftover.
  static let deadPID = 2_147_483_646

  @Test func sweep_RemovesTemporariesOfDeadProcesses_FilesAndFolders_Only() throws {
    let directory = try makeTemporaryDirectory()
    let dead = [
      ".a.mp4.waterflow-tmp-\(Self.deadPID)-AbC123",  // a video's file
      ".a.mp4.tmp-\(Self.deadPID)",  // the name videos had before
      ".a.mp4.waterflow-old-\(Self.deadPID)-QwE456",
    ]
    let kept = [
      ".a.mp4.waterflow-tmp-\(getpid())-XyZ789",  // a running job's
      ".b.mp4.waterflow-tmp-\(Self.deadPID)-AbC123",  // another output's
      ".a.mp4.tmp-AbC123",  // an older writer's, whose owner cannot be told
      "a.mp4",
    ]
    for name in dead + kept {
      try Data("x".utf8).write(to: URL(fileURLWithPath: directory + "/" + name))
    }
    let deadFolder = ".a.mp4.waterflow-tmp-\(Self.deadPID)-Folder"
    try FileManager.default.createDirectory(
      atPath: directory + "/" + deadFolder, withIntermediateDirectories: false)
    try Data("x".utf8).write(
      to: URL(fileURLWithPath: directory + "/" + deadFolder + "/frame-0001.png"))

    Temporaries.sweep(beside: directory + "/a.mp4")
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == kept.sorted())
  }

  @Test func atomicFile_SweepsItsDestinationsLeftovers_WhenItStarts() throws {
    let directory = try makeTemporaryDirectory()
    let leftover = directory + "/.out.png.waterflow-tmp-\(Self.deadPID)-AbC123"
    try Data("half".utf8).write(to: URL(fileURLWithPath: leftover))
    try writeAtomically([1], to: directory + "/out.png")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["out.png"])
  }
}

// MARK: - Staged folders

extension AtomicFileTests {
  static let frames = StagedFolder.Kind(marker: "frames.json") {
    $0 == "frames.json" || $0.hasPrefix("frame-")
  }

  @Test func stagedFolder_MissingParent_IsRefusedNamingIt_AndNothingIsCreated() throws {
    let directory = try makeTemporaryDirectory()
    let missing = directory + "/no-such-folder"
    let error = #expect(throws: FileWriteError.self) {
      try StagedFolder(replacing: missing + "/out/", kind: Self.frames)
    }
    #expect(error?.description.contains("'\(missing)' does not exist") == true)
    #expect(!FileManager.default.fileExists(atPath: missing))
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
  }

  @Test func stagedFolder_CreatesOnlyTheLastComponent() throws {
    let directory = try makeTemporaryDirectory()
    let staged = try StagedFolder(replacing: directory + "/out/", kind: Self.frames)
    try writeAtomically([1], to: staged.path + "/frames.json", sweeping: false)
    try staged.commit()
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["out"])
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory + "/out") == [
        "frames.json"
      ])
  }

  @Test func stagedFolder_Discarded_LeavesThePreviousFolder() throws {
    let directory = try makeTemporaryDirectory()
    let out = directory + "/out"
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
    try Data("old".utf8).write(to: URL(fileURLWithPath: out + "/frames.json"))
    let staged = try StagedFolder(replacing: out, kind: Self.frames)
    try writeAtomically([1], to: staged.path + "/frames.json", sweeping: false)
    staged.discard()
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["out"])
    #expect(try String(contentsOfFile: out + "/frames.json", encoding: .utf8) == "old")
  }

  @Test func aFileWrittenIntoTheStagingFolder_AppearsOnlyWithTheCommit_WithTheUsualMode() throws {
    let directory = try makeTemporaryDirectory()
    let out = directory + "/out"
    let staged = try StagedFolder(replacing: out, kind: Self.frames)
    let bytes = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    try staged.write(bytes, named: "frame-0001.png")
    #expect(!FileManager.default.fileExists(atPath: out), "nothing in place before the commit")
    #expect(try FileManager.default.contentsOfDirectory(atPath: staged.path) == ["frame-0001.png"])
    try writeAtomically([1], to: staged.path + "/frames.json", sweeping: false)
    try staged.commit()
    #expect(FileManager.default.contents(atPath: out + "/frame-0001.png") == Data(bytes))
    // The mode a file created by writeAtomically gets: 0666 less the umask.
    let mode = { (path: String) in
      (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
    }
    #expect(try mode(out + "/frame-0001.png") == mode(out + "/frames.json"))
  }

  @Test func aNameWrittenTwiceIntoTheStagingFolder_IsRefused_NamingTheOutputPath() throws {
    let directory = try makeTemporaryDirectory()
    let staged = try StagedFolder(replacing: directory + "/out", kind: Self.frames)
    try staged.write([1, 2, 3], named: "frame-0001.png")
    let error = #expect(throws: FileWriteError.self) {
      try staged.write([4], named: "frame-0001.png")
    }
    #expect(error?.description.contains(directory + "/out/frame-0001.png") == true, "\(String(describing: error))")
    #expect(FileManager.default.contents(atPath: staged.path + "/frame-0001.png") == Data([1, 2, 3]))
    staged.discard()
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
  }
}

func makeTemporaryDirectory() throws -> String {
  let path = FileManager.default.temporaryDirectory.appendingPathComponent(
    "waterflow-files-\(UUID().uuidString)"
  ).path
  try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  return path
}
