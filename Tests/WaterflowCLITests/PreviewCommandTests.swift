import Foundation
import Testing
import WaterflowTestSupport

/// `waterflow preview`: the page in Chromium follows saves, breaks and fixes, and pins.
@Suite struct PreviewCommandTests {
  /// A running preview of a file, its address read from the first line it prints.
  final class Preview {
    let process = Process()
    let address: String

    init(_ file: String, manifest: String) throws {
      process.executableURL = URL(fileURLWithPath: waterflowBinary)
      process.arguments = ["preview", "--no-open", "--port", "0", "--manifest", manifest, file]
      var environment = ProcessInfo.processInfo.environment
      environment["CI"] = nil
      environment["DISPLAY"] = nil
      process.environment = environment
      let out = Pipe()
      process.standardOutput = out
      process.standardError = FileHandle.nullDevice
      try process.run()
      let first = firstLine(of: out)
      let match = try #require(
        first.wholeMatch(of: #/Preview at (http://127\.0\.0\.1:\d+/\?token=[0-9a-f]{32})/#), "first line: \(first)")
      address = String(match.output.1)
    }

    deinit {
      process.terminate()
      process.waitUntilExit()
    }
  }

  @Test func refusedInCI() throws {
    let r = try waterflow(["preview", "--no-open", "Assets/Feeds/notes.json"], environment: ["CI": "true"])
    #expect(r.status != 0)
    #expect(r.stderr.contains("Refusing to start the preview: CI is set"))
  }

  @Test func aMissingFileIsNamed() throws {
    let r = try waterflow(["preview", "--no-open", "no/such/scene.json"], environment: ["CI": ""])
    #expect(r.status != 0)
    #expect(r.stderr.contains("Cannot read 'no/such/scene.json'"), "\(r.stderr)")
  }

  /// Chromium opens the page; the walk saves a template edit, a broken file and the fix, and
  /// pins a new screen: the page follows each without a reload.
  @Test func chromium_FollowsSavesErrorsAndNewPins() throws {
    let dir = try temporaryDirectory()
    try FileManager.default.copyItem(atPath: packageRoot + "/Assets/Feeds", toPath: dir + "/Feeds")
    let file = dir + "/Feeds/notes.json"
    let scene = try String(contentsOfFile: file, encoding: .utf8)
      .replacingOccurrences(of: #""height": 812, "scale": 3"#, with: #""height": 812, "scale": 1"#)
    try Data(scene.utf8).write(to: URL(fileURLWithPath: file))
    let manifest = dir + "/Golden/manifest.json"
    let preview = try Preview(file, manifest: manifest)
    let script = dir + "/walk.py"
    try Self.walk.write(toFile: script, atomically: true, encoding: .utf8)
    let screenshot = dir + "/preview.png"
    let walk = try ExternalProgram.pythonSelenium.run([
      script, preview.address, try ExternalProgram.chromium.path(), try ExternalProgram.chromedriver.path(),
      screenshot, file,
    ])
    #expect(walk.status == 0, "\(walk.output)")
    #expect(
      walk.stdout.split(separator: "\n").map(String.init) == [
        "start: 4 pins drawn",
        "hover: item 0, title: 海边日落🌅 this view is unreal",
        "frames: items 0 1 2 3 labelled; boxes: padding, spacing, elements, baselines",
        "edit: 4 pins outlined, the page not reloaded",
        "broken: notes.json: invalid JSON at line 1",
        "fixed: error gone",
        "pinned: 5 pins drawn",
        "recorded: Recorded preview/notes/iphone-4.7-light-300 in \(manifest)",
        "strip: 2544 × 718 pixels",
      ], "\(walk.output)")
    // The first pin, back on the fixed file, is what `render` draws of the same screen.
    let rendered = dir + "/render0.png"
    #expect(try waterflow(["render", file, "--offset", "0", "-o", rendered]).status == 0)
    let same = try waterflow(["diff", dir + "/pin0.png", rendered])
    #expect(same.status == 0 && same.stdout.contains("identical"), "\(same.stdout)")
    // The golden was written as `golden record` writes it, and checks.
    let check = try waterflow(["golden", "check", "--manifest", manifest], environment: ["CI": "true"])
    #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
    #expect(check.stdout.contains("1 golden: 1 passed"), "\(check.stdout)")
    let pins = try String(contentsOfFile: file + ".preview.json", encoding: .utf8)
    #expect(pins.contains(#""device" : "iphone-4.7""#), "\(pins)")
    #expect(FileManager.default.fileExists(atPath: screenshot))
  }

  static let walk = seleniumPrelude + #"""

    file = sys.argv[5]
    good = open(file).read()

    def save(text):
        # As editors save: a new file renamed over the old one.
        with open(file + ".tmp", "w") as f:
            f.write(text)
        os.replace(file + ".tmp", file)

    def drawn():
        return driver.execute_script("return [...document.querySelectorAll('figure img')].filter(i => i.complete && i.naturalWidth > 0).length")

    def until(check):
        wait.until(lambda _: check())

    try:
        driver.get(address)
        driver.execute_script("window.marker = 1")
        until(lambda: drawn() == 4)
        print("start: 4 pins drawn")
        # The first card of the first pin, on hover: its item's data.
        ActionChains(driver).move_to_element_with_offset(driver.find_element(By.CSS_SELECTOR, "figure img"), -40, -150).perform()
        until(lambda: driver.find_element(By.ID, "tip").is_displayed())
        tip = driver.find_element(By.ID, "tip").text.split("\n")
        print(f"hover: {tip[0]}, {[line for line in tip if line.startswith('title: ')][0]}")
        driver.find_element(By.ID, "frames").click()
        until(lambda: driver.find_element(By.CSS_SELECTOR, "figure .cells div").is_displayed())
        labels = [e.text for e in driver.find_elements(By.CSS_SELECTOR, "figure:first-child .cells span")]
        until(lambda: driver.execute_script("return document.querySelectorAll('figure:first-child svg.boxes .base').length") > 0)
        kinds = driver.execute_script("""const svg = document.querySelector('figure:first-child svg.boxes');
            return [['.pad', 'padding'], ['.gap', 'spacing'], ['.box', 'elements'], ['.base', 'baselines']]
              .filter(([s]) => svg.querySelectorAll(s).length > 0).map(([, name]) => name).join(', ')""")
        print(f"frames: items {' '.join(labels[:4])} labelled; boxes: {kinds}")
        driver.find_element(By.ID, "frames").click()
        save(good.replace('"size": 13, "weight": "medium"', '"size": 16, "weight": "medium"'))
        until(lambda: len(driver.find_elements(By.CSS_SELECTOR, "figure.changed")) == 4 and drawn() == 4)
        print(f"edit: 4 pins outlined, {'the page not reloaded' if driver.execute_script('return window.marker') == 1 else 'reloaded'}")
        save("{ oops\n")
        until(lambda: driver.find_element(By.ID, "error").is_displayed())
        first = driver.find_element(By.ID, "error").text.split(", column")[0]
        print(f"broken: {os.path.basename(first.split(': ')[0])}: {first.split(': ', 1)[1]}")
        save(good)
        until(lambda: not driver.find_element(By.ID, "error").is_displayed())
        print("fixed: error gone")
        # The first pin's image as the page has it, for a comparison with `render`.
        import base64
        until(lambda: drawn() == 4)
        png = driver.execute_async_script("""const done = arguments[arguments.length - 1];
            fetch(document.querySelector('figure a.full').href).then(r => r.arrayBuffer()).then(b => {
              let s = ''; for (const c of new Uint8Array(b)) s += String.fromCharCode(c); done(btoa(s)); });""")
        open(os.path.join(os.path.dirname(screenshot), "pin0.png"), "wb").write(base64.b64decode(png))
        form = driver.find_element(By.ID, "add")
        offset = form.find_element(By.NAME, "offset")
        offset.clear(); offset.send_keys("300")
        form.find_element(By.CSS_SELECTOR, "select[name=device] option[value='iphone-4.7'], select[name=device]").click()
        driver.execute_script("document.querySelector('#add select[name=device]').value = 'iphone-4.7'")
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        until(lambda: drawn() == 5)
        print("pinned: 5 pins drawn")
        driver.find_elements(By.CSS_SELECTOR, "figure")[4].click()
        ActionChains(driver).send_keys("r").perform()
        said = []
        until(lambda: said.append(driver.find_element(By.ID, "toast").text) or said[-1].startswith("Recorded"))
        print(f"recorded: {said[-1]}")
        # The screen one down: its scroll's contact strip, beside the template's boxes.
        driver.find_elements(By.CSS_SELECTOR, "figure")[2].find_element(By.CSS_SELECTOR, "button.stripbutton").click()
        until(lambda: driver.execute_script("const i = document.querySelectorAll('figure')[2].querySelector('.strip img'); return i.complete && i.naturalWidth > 0"))
        size = driver.execute_script("const i = document.querySelectorAll('figure')[2].querySelector('.strip img'); return [i.naturalWidth, i.naturalHeight]")
        print(f"strip: {size[0]} × {size[1]} pixels")
        driver.find_element(By.ID, "frames").click()
        until(lambda: driver.execute_script("return document.querySelectorAll('figure:first-child svg.boxes .base').length") > 0)
        driver.save_screenshot(screenshot)
    finally:
        driver.quit()
        browser.kill()
        driver_process.kill()
    """#
}
