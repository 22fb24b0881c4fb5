internal import CCairo
#if canImport(Glibc)
internal import Glibc
#endif

// Why this file defines a GLib function.
//
// Pango 1.50 (Debian 12's) starts two threads for every font pattern a font map meets for the
// first time ("[pango] FcFontSetMatch" and "[pango] FcFontSetSort", in pango_fc_patterns_new),
// so that fontconfig's matching and sorting can run while the caller does other work. Here the
// caller has nothing else to do: the next thing it does is wait for the match, and our
// fontconfig configurations hold four or five fonts, so each match or sort is a few microseconds
// while creating, starting and reaping its thread (an 8 MB stack mapped and faulted in, GLib's
// per-thread set-up) costs far more. A 60-frame scroll of the notes feed created 64 such threads
// on one job (32 patterns: the sizes and weights of its texts, in the renderer's and the
// measurer's font maps), all while its first frame is drawn. Without them (4 threads left):
// `render` of the notes feed 0.96× the wall time and 0.94× the CPU (farm-bench, 30 pairs),
// `layout` 0.92×; a long scroll pays them once, so it gains no more than those milliseconds.
// Pango has no setting for this, so this module defines `g_thread_new`, and every program that
// links it (waterflow, the tests, an app drawing with Waterflow's renderer) exports it: the
// dynamic linker then resolves Pango's calls to it, as it would an LD_PRELOAD library's. Those two
// threads run their function at once on the calling thread, which is what the caller waits for;
// every other thread (any name, any library) is GLib's own, unchanged. What is drawn is the same
// (the same match and sort of the same patterns; the goldens and pinned frames are unchanged).

/// GLib's `g_thread_new`, as the process would have it without this file.
private let glibThreadNew: (
  @convention(c) (
    UnsafePointer<CChar>?, ThreadFunction?, UnsafeMutableRawPointer?
  ) -> UnsafeMutablePointer<GThread>?
)? = {
  // RTLD_NEXT: the next definition after this executable's own, GLib's.
  guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: -1), "g_thread_new") else {
    return nil
  }
  return unsafeBitCast(
    symbol,
    to: (@convention(c) (UnsafePointer<CChar>?, ThreadFunction?, UnsafeMutableRawPointer?)
      -> UnsafeMutablePointer<GThread>?).self)
}()

/// Whether a GLib thread of this name is one of Pango's fontconfig helpers, which are run on the
/// calling thread instead.
private func runsInPlace(_ name: UnsafePointer<CChar>) -> Bool {
  strcmp(name, "[pango] FcFontSetMatch") == 0 || strcmp(name, "[pango] FcFontSetSort") == 0
}

/// A thread function as GLib declares one (`GThreadFunc`), spelled without GLib's types so
/// that the definition below can be seen by the linker outside this module.
package typealias ThreadFunction = @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?

@_cdecl("g_thread_new")
package func waterflowGLibThreadNew(
  _ name: UnsafePointer<CChar>?, _ function: ThreadFunction?, _ data: UnsafeMutableRawPointer?
) -> UnsafeMutableRawPointer? {
  if let name, let function, runsInPlace(name) {
    _ = function(data)
    // Pango only releases the thread it is given: a new reference to this one balances that.
    return UnsafeMutableRawPointer(g_thread_ref(g_thread_self()))
  }
  guard let glibThreadNew else {
    // No GLib after us: not a process that can reach here through Pango.
    fatalError("g_thread_new: GLib's definition was not found")
  }
  return UnsafeMutableRawPointer(glibThreadNew(name, function, data))
}
