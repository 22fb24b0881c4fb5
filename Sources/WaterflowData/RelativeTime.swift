/// Dates in item data: ISO 8601 texts and Unix times, read without Foundation so the module
/// stays on the standard library.
enum DataDate {
  /// The value as Unix seconds: a number (milliseconds above 10¹²), or an ISO 8601 date
  /// `YYYY-MM-DD` with an optional `THH:MM[:SS[.fff]]` and `Z` or `±HH:MM` (UTC without one).
  static func seconds(of value: DataValue) -> Double? {
    if case .number = value, let n = value.number, n.isFinite {
      return abs(n) >= 1e12 ? n / 1000 : n
    }
    guard case .string(let text) = value else { return nil }
    return parse(Array(text.utf8))
  }

  private static func parse(_ b: [UInt8]) -> Double? {
    var i = 0
    func number(_ count: Int) -> Int? {
      guard i + count <= b.count else { return nil }
      var n = 0
      for k in i..<(i + count) {
        guard b[k] >= 0x30 && b[k] <= 0x39 else { return nil }
        n = n * 10 + Int(b[k] - 0x30)
      }
      i += count
      return n
    }
    func take(_ c: Character) -> Bool {
      guard i < b.count, b[i] == c.asciiValue! else { return false }
      i += 1
      return true
    }
    guard let year = number(4), take("-"), let month = number(2), take("-"), let day = number(2),
      (1...12).contains(month), (1...31).contains(day)
    else { return nil }
    var seconds = Double(days(year: year, month: month, day: day)) * 86_400
    if i < b.count {
      guard take("T") || take(" "), let h = number(2), take(":"), let m = number(2), h < 24, m < 60
      else { return nil }
      seconds += Double(h * 3600 + m * 60)
      if take(":") {
        guard let s = number(2), s < 61 else { return nil }
        seconds += Double(s)
        if take(".") {
          var scale = 0.1
          while i < b.count, b[i] >= 0x30 && b[i] <= 0x39 {
            seconds += Double(b[i] - 0x30) * scale
            scale /= 10
            i += 1
          }
        }
      }
      if take("Z") {
      } else if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
        let sign = b[i] == UInt8(ascii: "+") ? 1.0 : -1.0
        i += 1
        guard let oh = number(2) else { return nil }
        _ = take(":")
        guard let om = number(2) else { return nil }
        seconds -= sign * Double(oh * 3600 + om * 60)
      }
      guard i == b.count else { return nil }
    }
    return seconds
  }

  /// Days from 1970-01-01 to a civil date (Howard Hinnant's `days_from_civil`).
  static func days(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }

  /// The civil date of a day count from 1970-01-01 (`civil_from_days`).
  static func civil(days z0: Int) -> (year: Int, month: Int, day: Int) {
    let z = z0 + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = doy - (153 * mp + 2) / 5 + 1
    let m = mp < 10 ? mp + 3 : mp - 9
    return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
  }
}

/// "3 days ago" in the languages the samples use; a time more than a week before `now` (or
/// after it) shows as its date.
enum RelativeTime {
  static func text(seconds t: Double, now: Double?, symbols: NumberSymbols) -> String {
    guard let now, now >= t, now - t < 7 * 86_400 else { return date(t, now: now, symbols) }
    let elapsed = now - t
    let (n, unit): (Int, Int) =
      elapsed < 60 ? (0, 0)
      : elapsed < 3600 ? (Int(elapsed / 60), 1)
      : elapsed < 86_400 ? (Int(elapsed / 3600), 2) : (Int(elapsed / 86_400), 3)
    let count = symbols.localDigits(String(n))
    switch symbols.language {
    case "zh":
      let hant = symbols.isTraditional
      return unit == 0
        ? (hant ? "剛剛" : "刚刚")
        : count + [hant ? "分鐘前" : "分钟前", hant ? "小時前" : "小时前", "天前"][unit - 1]
    case "ja": return unit == 0 ? "たった今" : count + ["分前", "時間前", "日前"][unit - 1]
    case "ko": return unit == 0 ? "방금" : count + ["분 전", "시간 전", "일 전"][unit - 1]
    case "ar":
      guard unit > 0 else { return "الآن" }
      // Arabic counts take the singular, dual, plural (3–10) or singular accusative (11+).
      let forms = [
        ["دقيقة", "دقيقتين", "دقائق", "دقيقة"], ["ساعة", "ساعتين", "ساعات", "ساعة"],
        ["يوم", "يومين", "أيام", "يومًا"],
      ][unit - 1]
      switch n {
      case 1: return "قبل " + forms[0]
      case 2: return "قبل " + forms[1]
      case 3...10: return "قبل " + count + " " + forms[2]
      default: return "قبل " + count + " " + forms[3]
      }
    default:
      guard unit > 0 else { return "just now" }
      let name = ["minute", "hour", "day"][unit - 1]
      return "\(count) \(name)\(n == 1 ? "" : "s") ago"
    }
  }

  private static func date(_ t: Double, now: Double?, _ symbols: NumberSymbols) -> String {
    let (y, m, d) = DataDate.civil(days: Int((t / 86_400).rounded(.down)))
    let sameYear = now.map { DataDate.civil(days: Int(($0 / 86_400).rounded(.down))).year == y } ?? false
    let digits = symbols.localDigits
    switch symbols.language {
    case "zh", "ja": return digits((sameYear ? "" : "\(y)年") + "\(m)月\(d)日")
    case "ko": return digits((sameYear ? "" : "\(y)년 ") + "\(m)월 \(d)일")
    case "en":
      let month = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][m - 1]
      return sameYear ? "\(month) \(d)" : "\(month) \(d), \(y)"
    default:
      let pad = { (n: Int) in n < 10 ? "0\(n)" : "\(n)" }
      return digits("\(y)-\(pad(m))-\(pad(d))")
    }
  }
}
