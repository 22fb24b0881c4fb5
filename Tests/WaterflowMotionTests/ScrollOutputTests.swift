import Foundation
import Testing
import WaterflowMotion

/// What the CLI used to decide itself, now in the library: the output an extension picks, the
/// paths refused as mistakes, and the progress line.
@Suite struct ScrollOutputTests {
  @Test func validating_RefusesAnExtensionThatIsNoFormat_UnlessItIsMarkedAFolder() throws {
    let error = #expect(throws: ScrollJobError.self) {
      try ScrollOutput(validating: "anim.mov")
    }
    #expect(error?.description.contains("'anim.mov' ends in .mov") == true)
    #expect(try ScrollOutput(validating: "anim.mov/") == .folder("anim.mov/"))
    #expect(try ScrollOutput(validating: "frames") == .folder("frames"))
    #expect(try ScrollOutput(validating: "a.MP4") == .video("a.MP4", .mp4))
    #expect(try ScrollOutput(validating: "a.pdf") == .pdf("a.pdf"))
  }

  @Test func progressLine_ShowsTheBarFramesRateAndTimeLeft() {
    let progress = ScrollProgress(done: 10, total: 40, elapsed: 2)
    #expect(
      progress.line(width: 8) == "[##      ] 10/40 frames  5.0 fps  ETA 6.0 s")
  }
}
