import Foundation
import Testing
import WaterflowTestSupport

/// Runs the built binary with arguments, in the package root, and waits for it.
func waterflow(_ arguments: [String], environment: [String: String] = [:])
  throws -> ProgramRun
{
  var env = ProcessInfo.processInfo.environment
  for (k, v) in environment { env[k] = v }
  return try runProgram(atPath: waterflowBinary, arguments, environment: env, in: packageRoot)
}

/// A fresh temporary directory for one test.
func temporaryDirectory() throws -> String {
  try makeTemporaryDirectory(prefix: "waterflow-cli")
}

/// Writes a scene file and returns its path.
func sceneFile(
  _ json: String, in dir: String, named name: String = "scene.json"
) throws -> String {
  let path = dir + "/" + name
  try Data(json.utf8).write(to: URL(fileURLWithPath: path))
  return path
}

/// The six-golden example: a top-margin change fails five goldens with one cause, a price
/// change one with another (the grouping and review tests).
struct SixGoldens {
  let dir: String
  var manifest: String { dir + "/G/manifest.json" }
  static let names = ["grid/at0", "grid/at100", "grid/at200", "grid/at300", "grid/at400", "shop"]

  init(failing: Bool = true) throws {
    dir = try temporaryDirectory()
    let grid = #"{"viewport": {"width": 200, "height": 300, "scale": 1}, "columns": 2, "margins": {"top": TOP, "left": 10, "right": 10, "bottom": 10, "column": 5, "row": 5}, "items": {"count": 40, "heights": [60, 90]}}"#
    let shop = #"{"viewport": {"width": 200, "height": 300, "scale": 1}, "columns": 2, "items": [{"height": 80, "price": "1.00"}, {"height": 80, "price": "1.20"}, {"height": 80, "price": "PRICE"}]}"#
    try write(grid.replacingOccurrences(of: "TOP", with: "10"), "grid.json")
    try write(shop.replacingOccurrences(of: "PRICE", with: "1.40"), "shop.json")
    try FileManager.default.createDirectory(atPath: dir + "/G", withIntermediateDirectories: true)
    let entries = [0, 100, 200, 300, 400].map { #"{"name": "grid/at\#($0)", "scene": "../grid.json", "offset": \#($0)}"# }
      + [#"{"name": "shop", "scene": "../shop.json"}"#]
    try write(#"{"goldens": [\#(entries.joined(separator: ", "))]}"#, "G/manifest.json")
    let record = try waterflow(["golden", "record", "--manifest", manifest], environment: ["CI": ""])
    try #require(record.status == 0, "\(record.output)")
    if failing {
      try write(grid.replacingOccurrences(of: "TOP", with: "16"), "grid.json")
      try write(shop.replacingOccurrences(of: "PRICE", with: "2.50"), "shop.json")
    }
  }

  func write(_ text: String, _ name: String) throws {
    try text.write(toFile: dir + "/" + name, atomically: true, encoding: .utf8)
  }

  /// Each golden's PNG bytes.
  func pngs() -> [String: Data] {
    var all: [String: Data] = [:]
    for name in Self.names { all[name] = FileManager.default.contents(atPath: "\(dir)/G/\(name).png") }
    return all
  }

  /// The goldens that a fresh check passes.
  func passing() throws -> Set<String> {
    let run = try waterflow(["golden", "check", "--manifest", manifest, "--artifacts", dir + "/again", "--json"])
    return Set(run.stdout.split(separator: "\n").compactMap { line in
      let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      return object?["status"] as? String == "passed" ? object?["name"] as? String : nil
    })
  }

  func temporaries() -> [String] {
    (FileManager.default.enumerator(atPath: dir + "/G")?.allObjects as? [String] ?? [])
      .filter { $0.contains(".waterflow-tmp-") }
  }
}

/// The start of a page walk in Python: selenium with Debian's chromedriver, attached to a headless
/// Chromium. Its arguments: the page's address, the chromium and chromedriver paths, the
/// screenshot's path, then the walk's own (`sys.argv[5:]`). It defines `driver`, `wait`,
/// `until_true(check, what)`, `browser` and `driver_process`.
let seleniumPrelude = #"""
    import os, socket, subprocess, sys, tempfile, time
    from selenium import webdriver
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    # Every address is 127.0.0.1, never "localhost": a minimal Debian root has no /etc/hosts, and
    # selenium's own chromedriver service waits on "localhost". So Chromium and chromedriver are
    # started here, on loopback ports of their own choosing, and chromedriver attaches.
    address, chromium, chromedriver, screenshot = sys.argv[1:5]

    def until_true(check, what, seconds=60):
        deadline = time.monotonic() + seconds
        while not check():
            if time.monotonic() > deadline:
                raise SystemExit(f"gave up waiting for {what}")
            time.sleep(0.05)

    def free_port():
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            return s.getsockname()[1]

    def listening(port):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return True
        except OSError:
            return False

    profile = tempfile.mkdtemp()
    browser = subprocess.Popen([chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1300,900",
                                "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0", f"--user-data-dir={profile}",
                                "about:blank"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    active = os.path.join(profile, "DevToolsActivePort")
    until_true(lambda: os.path.exists(active) and open(active).read().strip(), "Chromium's DevTools port")
    devtools = int(open(active).read().split()[0])
    port = free_port()
    driver_process = subprocess.Popen([chromedriver, f"--port={port}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    until_true(lambda: listening(port), "chromedriver")
    options = webdriver.ChromeOptions()
    options.debugger_address = f"127.0.0.1:{devtools}"
    driver = webdriver.Remote(command_executor=f"http://127.0.0.1:{port}", options=options)
    wait = WebDriverWait(driver, 30)

    """#

/// The first line a process writes to a pipe, read byte by byte so nothing after it is consumed
/// (a server's address, printed before it serves).
func firstLine(of pipe: Pipe) -> String {
  var line = Data()
  while true {
    let byte = pipe.fileHandleForReading.readData(ofLength: 1)
    if byte.isEmpty || byte == Data("\n".utf8) { break }
    line += byte
  }
  return String(decoding: line, as: UTF8.self)
}
