import WaterflowJSON
import WaterflowView

extension JSONWriter {
  /// Writes one layout pass as `waterflow trace --json` and scroll traces record it:
  /// `{"event": "append 20", "offset": 0, "displayed": [{"index": 0, "cell": 1}, …], "created": […],
  /// "reused": […], "enqueued": […], "poolSize": 3}`, with `"frame"` and `"time"` first for a
  /// frame of an animation.
  public func writeTrace(
    _ pass: LayoutPass, event: String?,
    frame: (number: Int, time: Double)? = nil
  ) {
    write("{")
    if let frame {
      write("\"frame\": ")
      write(frame.number)
      write(", \"time\": ")
      write(frame.time)
      write(", ")
    }
    if let event {
      write("\"event\": ")
      write(quoting: event)
      write(", ")
    }
    write("\"offset\": ")
    write(pass.offset)
    write(", \"displayed\": ")
    writeCells(pass.displayed)
    write(", \"created\": ")
    writeCells(pass.created)
    write(", \"reused\": ")
    writeCells(pass.reused)
    write(", \"enqueued\": ")
    writeCells(pass.enqueued)
    write(", \"poolSize\": ")
    write(pass.poolSize)
    write("}")
  }

  private func writeCells(_ cells: [DisplayedCell]) {
    write("[")
    for (i, cell) in cells.enumerated() {
      write(i == 0 ? "{\"index\": " : ",{\"index\": ")
      write(cell.index)
      write(", \"cell\": ")
      write(cell.cell)
      write("}")
    }
    write("]")
  }
}
