extension SVGDocument {
  /// The SVG with cairo's surface ids renumbered from 1 in order of appearance.
  ///
  /// cairo names each surface `surfaceN` from a process-wide counter, so a second document
  /// rendered in the same process says `surface2` where the first said `surface1`; renumbering
  /// makes the same drawing give the same bytes in any process.
  public static func renumberingSurfaceIDs(_ svg: [UInt8]) -> [UInt8] {
    let key = Array("surface".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(svg.count)
    var numbers: [ArraySlice<UInt8>: Int] = [:]
    var i = 0
    while i < svg.count {
      if svg[i] == key[0], i + key.count < svg.count, svg[i..<(i + key.count)].elementsEqual(key) {
        var j = i + key.count
        while j < svg.count, svg[j] >= 0x30, svg[j] <= 0x39 { j += 1 }
        if j > i + key.count {
          let digits = svg[(i + key.count)..<j]
          let n = numbers[digits] ?? (numbers.count + 1)
          numbers[digits] = n
          out += key
          out += Array(String(n).utf8)
          i = j
          continue
        }
      }
      out.append(svg[i])
      i += 1
    }
    return out
  }
}
