/// Text for HTML content and attribute values: the pages Waterflow writes (golden reports,
/// contact sheets) quote names and messages with it.
public func escapeHTML(_ text: String) -> String {
  var out = ""
  for c in text {
    switch c {
    case "&": out += "&amp;"
    case "<": out += "&lt;"
    case ">": out += "&gt;"
    case "\"": out += "&quot;"
    default: out.append(c)
    }
  }
  return out
}
