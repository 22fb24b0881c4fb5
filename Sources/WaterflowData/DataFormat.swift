/// How a `{field|format}` shows a number or a date: `{likes|compact}` shows 12345 as `1.2万` in
/// Chinese and `12.3k` in English.
///
/// | Format | 12345.678 in en | zh-Hans | ar |
/// |---|---|---|---|
/// | `compact` | 12.3k | 1.2万 | ١٢٫٣ ألف |
/// | `grouped` | 12,346 | 12,346 | ١٢٬٣٤٦ |
/// | `fixed:2` | 12345.68 | 12345.68 | ١٢٣٤٥٫٦٨ |
/// | `percent` (of 0.256) | 26% | 26% | ٢٦٪ |
/// | `integer` | 12,345 | 12,345 | ١٢٬٣٤٥ |
/// | `fraction` | .68 | .68 | ٫٦٨ |
/// | `relative` (a date) | 3 days ago | 3天前 | قبل ٣ أيام |
///
/// Dates are ISO 8601 texts (`2026-11-24`, `2026-11-24T08:30:00Z`, `…+08:00`) or Unix times in
/// seconds (or milliseconds, above 10¹²). `relative` measures them against the scene's fixed
/// `now`, never the clock, so a drawing is the same on every run.
public enum DataFormat: Hashable, Sendable, CustomStringConvertible {
  /// Short counts: `1.2万`, `12.3k`, `1.2M`, with one decimal at most.
  case compact
  /// Grouped digits, rounded to a whole number: `12,346`.
  case grouped
  /// A fixed number of decimals, not grouped: `fixed:2`.
  case fixed(Int)
  /// A share of 1 as a percentage, with decimals: `percent`, `percent:1`.
  case percent(Int)
  /// A price's whole part, grouped, without rounding: `129` of `129.5`.
  case integer
  /// A price's fraction with its decimal separator: `.50` of `129.5` (`fraction:2`).
  case fraction(Int)
  /// A date against the scene's `now`: `3 days ago`, `3天前`.
  case relative

  /// The formats as messages list them.
  public static let names = "compact, grouped, fixed:N, percent[:N], integer, fraction[:N], relative"

  /// Parses a format's name; nil when it is not one.
  public init?(_ text: String) {
    let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
    let digits = parts.count == 2 ? Int(parts[1]) : nil
    if parts.count == 2, digits == nil || !(0...10).contains(digits!) { return nil }
    switch parts[0] {
    case "compact" where parts.count == 1: self = .compact
    case "grouped" where parts.count == 1: self = .grouped
    case "fixed" where digits != nil: self = .fixed(digits!)
    case "percent": self = .percent(digits ?? 0)
    case "integer" where parts.count == 1: self = .integer
    case "fraction": self = .fraction(digits ?? 2)
    case "relative" where parts.count == 1: self = .relative
    default: return nil
    }
  }

  public var description: String {
    switch self {
    case .compact: "compact"
    case .grouped: "grouped"
    case .fixed(let n): "fixed:\(n)"
    case .percent(let n): n == 0 ? "percent" : "percent:\(n)"
    case .integer: "integer"
    case .fraction(let n): n == 2 ? "fraction" : "fraction:\(n)"
    case .relative: "relative"
    }
  }

  /// A date text (ISO 8601) in Unix seconds, as `relative` reads it; nil when it is not one.
  public static func seconds(ofDate text: String) -> Double? {
    DataDate.seconds(of: .string(text))
  }

  /// Whether the format reads a date rather than a number.
  public var readsDate: Bool { self == .relative }

  /// The value formatted, or nil when it is not a number (a date for `relative`).
  ///
  /// - Complexity: O(number of digits).
  public func format(_ value: DataValue, in context: DataFormatting) -> String? {
    let symbols = context.symbols
    if self == .relative {
      guard let time = DataDate.seconds(of: value) else { return nil }
      return RelativeTime.text(seconds: time, now: context.now, symbols: symbols)
    }
    guard let x = value.number, x.isFinite else { return nil }
    switch self {
    case .compact: return symbols.compact(x)
    case .grouped: return symbols.digits(x, decimals: 0, grouped: true)
    case .fixed(let n): return symbols.digits(x, decimals: n, grouped: false)
    case .percent(let n): return symbols.percent(x * 100, decimals: n)
    case .integer:
      let whole = x < 0 ? -(-x).rounded(.down) : x.rounded(.down)
      return symbols.digits(whole, decimals: 0, grouped: true)
    case .fraction(let n):
      let text = symbols.digits(abs(x), decimals: n, grouped: false)
      guard let dot = text.lastIndex(of: symbols.decimal) else { return "" }
      return String(text[dot...])
    case .relative: return nil
    }
  }
}

/// The locale and the fixed reference date that `{field|format}` texts are formatted with.
public struct DataFormatting: Hashable, Sendable {
  /// A BCP 47 locale (`en`, `zh-Hans`, `ar`).
  public var locale: String {
    didSet { symbols = NumberSymbols(locale: locale) }
  }
  /// The locale's digits and separators, worked out once rather than per value formatted.
  var symbols: NumberSymbols
  /// The reference date `relative` measures against, in Unix seconds; nil when the scene gives
  /// none, and then relative dates show as dates.
  public var now: Double?

  /// Formatting in a locale against a reference date.
  public init(locale: String = "en", now: Double? = nil) {
    self.locale = locale
    self.now = now
    symbols = NumberSymbols(locale: locale)
  }
}

/// A locale's digits, separators and short-count units: what the formats need, for the
/// languages the samples and the string tables cover. Foundation's formatters are left out on
/// purpose: their output follows the ICU data of the machine, and a golden must not.
struct NumberSymbols: Hashable, Sendable {
  var language: String
  var script: String
  var region: String
  var decimal: Character = "."
  var group: Character = ","
  /// The digits 0 to 9.
  var zero: UInt32 = 0x30
  var percentSign = "%"

  init(locale: String) {
    let parts = locale.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
    language = parts.first?.lowercased() ?? "en"
    script = parts.dropFirst().first { $0.count == 4 } ?? ""
    region = parts.dropFirst().first { $0.count == 2 }?.uppercased() ?? ""
    switch language {
    case "ar":
      decimal = "٫"
      group = "٬"
      zero = 0x660
      percentSign = "٪"
    case "de", "es", "it", "pt", "id", "nl", "tr":
      decimal = ","
      group = "."
    case "fr", "ru", "uk", "pl", "cs", "sv", "nb", "fi":
      decimal = ","
      group = "\u{202F}"
    default: break
    }
  }

  /// Whether Chinese is written in traditional characters (zh-Hant, zh-TW, zh-HK).
  var isTraditional: Bool {
    script == "Hant" || (script.isEmpty && ["TW", "HK", "MO"].contains(region))
  }

  /// `x` with `decimals` decimals, rounded half away from zero, in the locale's digits.
  func digits(_ x: Double, decimals: Int, grouped: Bool) -> String {
    let scale = pow10(decimals)
    let scaled = (abs(x) * scale).rounded(.toNearestOrAwayFromZero)
    var whole = (scaled / scale).rounded(.down)
    var fraction = scaled - whole * scale
    if fraction >= scale {
      whole += 1
      fraction -= scale
    }
    var head = wholeDigits(whole)
    if grouped, head.count > 3 {
      var out: [Character] = []
      for (i, c) in head.enumerated() {
        if i > 0, (head.count - i) % 3 == 0 { out.append(group) }
        out.append(c)
      }
      head = String(out)
    }
    var text = (x < 0 && scaled != 0 ? "-" : "") + head
    if decimals > 0 {
      let f = wholeDigits(fraction)
      text += String(decimal) + String(repeating: "0", count: max(0, decimals - f.count)) + f
    }
    return localDigits(text)
  }

  private func wholeDigits(_ x: Double) -> String {
    // Beyond 2^63 no count is real; print what Double gives rather than trapping.
    x < 9.2e18 ? String(Int64(x)) : String(x)
  }

  private func pow10(_ n: Int) -> Double {
    var p = 1.0
    for _ in 0..<n { p *= 10 }
    return p
  }

  /// ASCII digits in the text turned into the locale's.
  func localDigits(_ text: String) -> String {
    guard zero != 0x30 else { return text }
    var out = String.UnicodeScalarView()
    for s in text.unicodeScalars {
      if s.value >= 0x30 && s.value <= 0x39 {
        out.append(Unicode.Scalar(zero + s.value - 0x30)!)
      } else {
        out.append(s)
      }
    }
    return String(out)
  }

  func percent(_ x: Double, decimals: Int) -> String {
    let number = digits(x, decimals: decimals, grouped: true)
    switch language {
    case "fr", "de", "sv", "nb", "fi", "cs", "ru": return number + "\u{00A0}" + percentSign
    default: return number + percentSign
    }
  }

  /// A short count: one decimal at most, trailing `.0` dropped.
  func compact(_ x: Double) -> String {
    let units: [(Double, String)]
    var space = ""
    switch language {
    case "zh":
      units = isTraditional ? [(1e8, "億"), (1e4, "萬")] : [(1e8, "亿"), (1e4, "万")]
    case "ja": units = [(1e8, "億"), (1e4, "万")]
    case "ko": units = [(1e8, "억"), (1e4, "만")]
    case "ar":
      units = [(1e9, "مليار"), (1e6, "مليون"), (1e3, "ألف")]
      space = "\u{00A0}"
    default: units = [(1e9, "B"), (1e6, "M"), (1e3, "k")]
    }
    let size = abs(x)
    for (n, (unit, name)) in units.enumerated() where size >= unit {
      let shown = (size / unit * 10).rounded(.toNearestOrAwayFromZero) / 10
      // 999,960 rounds to 1000k: that is 1M, in the next unit up when there is one.
      if n > 0, shown * unit >= units[n - 1].0 {
        return sign(x) + "1" + space + units[n - 1].1
      }
      return sign(x) + trimmed(shown) + space + name
    }
    return digits(x, decimals: 0, grouped: false)
  }

  private func sign(_ x: Double) -> String { x < 0 ? "-" : "" }

  private func trimmed(_ x: Double) -> String {
    let whole = x.rounded(.down)
    return x == whole ? digits(x, decimals: 0, grouped: false) : digits(x, decimals: 1, grouped: false)
  }
}
