// `waterflow`, the program users run: a launcher that runs a plain `waterflow diff` itself and
// hands every other command line to waterflow-core, the whole tool, which sits beside it.
//
// Why two programs: waterflow-core links cairo, pango and the forty libraries they bring, and
// with them and the tool's own code a diff held 18 MB before it read a byte. `diff` runs once
// per image pair in a CI job, and comparing two 750×1334 frames needs 8 MB for their pixels;
// odiff, its fastest peer, does it in 15 MB. This launcher links the comparison, the PNG codec
// and libdeflate only (statically, in `make release`): 6 MB before reading, 14 MB at the peak.
// Everything else costs one execve (the process keeps its id, its signals and its exit status):
// about 0.2 ms, `layout` of the reference scene 9.32 against 9.10 ms run directly.
import CommandLineCore
import FileTransactions

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

@main
enum Launcher {
  static func main() {
    let arguments = CommandLine.arguments
    if arguments.count > 1, arguments[1] == "diff",
      let request = DiffRequest(plainArguments: arguments.dropFirst(2))
    {
      // What waterflow-core's DiffCommand does with the same command line: 0 within the
      // tolerance, 1 beyond it, 2 with "Error: …" when a file cannot be read or written.
      var status: Int32 = 0
      do { status = try request.run() ? 0 : 1 } catch {
        warn("Error: \(error)")
        status = 2
      }
      Interruption.waitIfInterrupted()
      exit(status)
    }
    runCore(arguments)
  }

  /// Replaces this process with waterflow-core, with the same arguments; returns only to exit 2.
  static func runCore(_ arguments: [String]) -> Never {
    let core = coreDirectory() + "/waterflow-core"
    // argv[0] stays the user's, so that waterflow-core's messages name the program they ran.
    var argv = arguments.map { strdup($0) }
    argv.append(nil)
    execv(core, argv)
    let reason = String(cString: strerror(errno))
    warn(
      "Error: cannot run '\(core)': \(reason). waterflow runs every command but a plain diff "
        + "with waterflow-core, built beside it (swift build, make release): keep the two programs "
        + "in one folder.")
    exit(2)
  }

  /// The folder this program's file is in, symbolic links resolved (/proc/self/exe on Linux,
  /// else the path it was started by).
  static func coreDirectory() -> String {
    var path = "/proc/self/exe"
    if access(path, F_OK) != 0 { path = CommandLine.arguments.first ?? "." }
    guard let resolved = realpath(path, nil) else { return "." }
    defer { free(resolved) }
    let file = String(cString: resolved)
    guard let slash = file.lastIndex(of: "/") else { return "." }
    return slash == file.startIndex ? "/" : String(file[..<slash])
  }
}
