import FuzzChecks

/// libFuzzer's entry point; libFuzzer itself provides `main` (see `make fuzz`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
  FuzzChecks.all["ShotFile"]!(Array(UnsafeRawBufferPointer(start: start, count: count)))
  return 0
}
