package import PixelDiff

/// One `waterflow diff` to run: what waterflow-core's `DiffCommand` parsed, or the plain command
/// line that the `waterflow` launcher reads by itself (see `init?(plainArguments:)`).
package struct DiffRequest {
  package var expected: String
  package var actual: String
  package var output: String?
  package var options = ImageDiff.Options()
  package var tolerance = DiffTolerance(maxMismatchedPixels: 0)
  package var json = false

  /// A request to compare `expected` with `actual`, and write the diff image to `output` if any.
  package init(
    expected: String, actual: String, output: String? = nil, options: ImageDiff.Options = ImageDiff.Options(),
    tolerance: DiffTolerance = DiffTolerance(maxMismatchedPixels: 0), json: Bool = false
  ) {
    self.expected = expected
    self.actual = actual
    self.output = output
    self.options = options
    self.tolerance = tolerance
    self.json = json
  }

  /// Compares, writes the diff image and prints the report; returns whether the images match
  /// within the tolerance (the command then exits 0, else 1).
  ///
  /// - Throws: ``CLIError`` when a file cannot be read or written (the command exits 2).
  package func run() throws -> Bool {
    // Both files are decoded at once, and the diff image is drawn over the expected one.
    let result: DiffResult
    do {
      result = try ImageDiff.compareFiles(
        expected, actual, options: options, diffImage: output == nil ? .never : .always)
    } catch { throw CLIError("\(error)") }
    if let output, let image = result.diffImage {
      installInterruptionCleanup(promising: [output])
      // The frame encoder: a diff image is a faded screenshot with marks, what it is made for.
      try write(image.pngData(compression: .frames), to: output)
    }
    let passes = result.isWithin(tolerance)
    if json {
      emit(
        JSONText.object([
          ("mismatched", JSONText(result.mismatched)),
          ("total", JSONText(result.total)),
          ("ratio", JSONText(result.ratio)),
          ("identical", .bool(result.identical)),
          ("sizesDiffer", .bool(result.sizesDiffer)),
        ]).rendered())
    } else {
      emit(report(result, passes: passes, masked: options.masks.count))
    }
    return passes
  }

  private func report(_ r: DiffResult, passes: Bool, masked: Int) -> String {
    let threshold = options.threshold
    let includeAA = options.includeAA
    var lines = [
      "expected  \(expected)  \(r.expectedSize)",
      "actual    \(actual)  \(r.actualSize)",
    ]
    if r.sizesDiffer {
      lines.append(
        "FAIL: the sizes differ (\(r.expectedSize) vs \(r.actualSize)); no pixels were compared\(output == nil ? "" : " and no diff image was written")."
      )
      return lines.joined(separator: "\n")
    }
    var compared = "compared  \(r.total) pixels"
    if masked > 0 {
      compared +=
        " (\(r.expectedSize.width * r.expectedSize.height - r.total) masked by \(masked) mask\(masked == 1 ? "" : "s"))"
    }
    lines.append(
      compared
        + ", threshold \(JSONText.format(threshold))\(includeAA ? ", anti-aliasing counted" : "")"
    )
    var differ = "differ    \(r.mismatched) pixels (\(DiffTolerance.percent(r.ratio)))"
    if r.antialiased > 0 {
      differ += "; \(r.antialiased) anti-aliased pixels ignored"
    }
    lines.append(differ)
    if let output, r.diffImage != nil {
      lines.append("diff      \(output) (red: counted, yellow: anti-aliasing)")
    }
    var limits: [String] = []
    if tolerance.maxMismatchedPixels != .max {
      limits.append("--max-diff-pixels \(tolerance.maxMismatchedPixels)")
    }
    if tolerance.maxMismatchedRatio < 1 {
      limits.append("--max-diff-ratio \(JSONText.format(tolerance.maxMismatchedRatio))")
    }
    let limit = limits.isEmpty ? "any count" : limits.joined(separator: ", ")
    if r.identical {
      lines.append("OK: identical")
    } else if passes {
      lines.append("OK: within \(limit)")
    } else {
      lines.append(
        "FAIL: \(r.mismatched) differing pixels exceed \(limit)\(output == nil ? "; add -o diff.png to see where" : "")"
      )
    }
    return lines.joined(separator: "\n")
  }
}

extension DiffRequest {
  /// `diff EXPECTED ACTUAL` with at most `-o`/`--output OUT.png`, every option at its default;
  /// nil for anything else, which waterflow-core then parses with ArgumentParser.
  ///
  /// Why: this form is what the `waterflow` launcher runs by itself, without cairo's libraries
  /// and without ArgumentParser, which reflects a command's options and instantiates their
  /// generic types on first use (a sixth of a small `diff`); `diff` runs once per image pair.
  /// It means exactly what DiffCommand would parse from it, and every other form (any other
  /// option, `--help`, a bad value) still goes through DiffCommand, with its checks and messages.
  package init?(plainArguments arguments: ArraySlice<String>) {
    var positional: [String] = []
    var output: String?
    var rest = arguments
    while let argument = rest.popFirst() {
      if argument == "-o" || argument == "--output" {
        guard output == nil, let value = rest.popFirst(), !value.hasPrefix("-") else {
          return nil
        }
        output = value
      } else if argument.hasPrefix("--output=") {
        guard output == nil else { return nil }
        output = String(argument.dropFirst("--output=".count))
      } else if argument.hasPrefix("-") {
        return nil
      } else {
        positional.append(argument)
      }
    }
    guard positional.count == 2 else { return nil }
    // Any other name, ".PNG" too, goes to DiffCommand, whose check of the output's format then
    // accepts it or says why not.
    if let output, !output.hasSuffix(".png") { return nil }
    self.init(expected: positional[0], actual: positional[1], output: output)
  }
}
