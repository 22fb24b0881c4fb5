import Testing
import WaterflowLayout

/// Given frames continued by load more and refresh.
@Suite struct LayoutFramesContinueTests {
  // Two items in a column under a 20-pt header: 10 pt margin, a 5-pt gap, 10 pt at the end.
  let frames = LayoutFrames(
    frames: [Rect(x: 10, y: 30, width: 100, height: 50), Rect(x: 10, y: 85, width: 100, height: 40)],
    contentSize: Size(width: 120, height: 160), header: Rect(x: 0, y: 0, width: 120, height: 20),
    footer: Rect(x: 0, y: 135, width: 120, height: 25))

  @Test func appending_RepeatsTheFramesABlockFurtherOn() throws {
    let more = try #require(frames.appending(3))
    // A block is the items' extent (30…125) plus the 10 pt before the first: 105 pt.
    #expect(more.frames.count == 5)
    #expect(more.frames[2] == Rect(x: 10, y: 135, width: 100, height: 50))
    #expect(more.frames[3] == Rect(x: 10, y: 190, width: 100, height: 40))
    #expect(more.frames[4] == Rect(x: 10, y: 240, width: 100, height: 50))
    // The content and the footer grow by how far the last new frame reaches past the old end.
    #expect(more.contentSize.height == 160 + 165)
    #expect(more.footer == Rect(x: 0, y: 135 + 165, width: 120, height: 25))
    #expect(more.header == frames.header)
  }

  @Test func prepending_PutsTheLastFramesFirstAndMovesTheRest() throws {
    let more = try #require(frames.prepending(1))
    // Item 1's frame (40 high) goes where the first item started; the others move 50 pt.
    #expect(more.frames[0] == Rect(x: 10, y: 30, width: 100, height: 40))
    #expect(more.frames[1] == Rect(x: 10, y: 80, width: 100, height: 50))
    #expect(more.frames[2] == Rect(x: 10, y: 135, width: 100, height: 40))
    #expect(more.contentSize.height == 210)
    #expect(more.footer?.minY == 185)
  }

  @Test func framesThatCannotContinue_SayNo() {
    var upward = frames
    upward.startsAtEnd = true
    #expect(!upward.canContinue && upward.appending(1) == nil)
    #expect(LayoutFrames(frames: [], contentSize: Size(width: 1, height: 1)).appending(1) == nil)
  }
}
