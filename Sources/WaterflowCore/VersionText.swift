import WaterflowCommandLine
import Cairo
import Foundation
import WaterflowGolden
import WaterflowRender

/// What `waterflow --version` prints: the version, and the libraries and font files text is
/// drawn with, so a bug report says which stack made a picture.
enum VersionText {
  /// Waterflow's version; raised with each release.
  static let version = "0.1.0"

  /// The version line, then the font stack: the fingerprint goldens record, and the file.
  static func text(fontPath: String = Renderer.defaultFontPath) -> String {
    var lines = ["waterflow \(version)"]
    do {
      let renderer = try Renderer(fontPath: fontPath)
      let stack = FontStackFingerprint(renderer: renderer)
      lines.append(
        "libraries: cairo \(stack.cairo), pixman \(stack.pixman), freetype \(stack.freetype), "
          + "pango \(stack.pango), harfbuzz \(stack.harfbuzz), fontconfig \(stack.fontconfig)")
      // The fingerprint's digests, from this process's cache: no file is hashed twice.
      func hash(_ font: Font) -> String { FontDigests.shared.digests(of: [font])[0] }
      lines.append("fonts, tried in this order for each character:")
      for (i, font) in renderer.fonts.fonts.enumerated() {
        lines.append("  \(i + 1). \(font.familyName) (\(hash(font))) at \(font.path)")
      }
      if !renderer.fonts.faces.isEmpty {
        lines.append("other faces of those families, for bold or italic text:")
        for face in renderer.fonts.faces {
          lines.append("  \(face.familyName) \(face.styleName) (\(hash(face))) at \(face.path)")
        }
      }
      lines.append(
        "font rules: \(stack.rules) (semibold and bold text in a font with no such face, such as"
          + " Chinese in WenQuanYi Micro Hei, is emboldened by FreeType)")
    } catch {
      lines.append("fonts: none loadable: \(error)")
    }
    return lines.joined(separator: "\n")
  }
}
