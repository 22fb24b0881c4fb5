import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

import Cairo  // defines the process's g_thread_new

/// Pango's fontconfig helper threads run on the thread that starts them, and every other GLib
/// thread is GLib's own (Sources/Cairo/PangoThreads.swift says why).
@Suite struct PangoThreadsTests {
  typealias Function = @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?

  /// `g_thread_new` as the process resolves it, which is how Pango's calls find it.
  static func glibFunction<T>(_ name: String, as type: T.Type) throws -> T {
    let symbol = try #require(dlsym(nil, name), "\(name) is not in the process")
    return unsafeBitCast(symbol, to: type)
  }

  /// Where a thread function ran.
  final class Record {
    var thread: pthread_t? = nil
  }

  static let recordThread: Function = { data in
    Unmanaged<Record>.fromOpaque(data!).takeUnretainedValue().thread = pthread_self()
    return nil
  }

  @Test(arguments: ["[pango] FcFontSetMatch", "[pango] FcFontSetSort"])
  func pangosFontconfigThreads_RunOnTheCallingThread(name: String) throws {
    let threadNew = try Self.glibFunction(
      "g_thread_new",
      as: (@convention(c) (UnsafePointer<CChar>?, Function?, UnsafeMutableRawPointer?)
        -> UnsafeMutableRawPointer?).self)
    let unref = try Self.glibFunction(
      "g_thread_unref", as: (@convention(c) (UnsafeMutableRawPointer?) -> Void).self)
    let record = Record()
    // Retained for the function: were it on a thread of its own, it could run after this test.
    let retained = Unmanaged.passRetained(record)
    let thread = threadNew(name, Self.recordThread, retained.toOpaque())
    // Done by the time it returns, on this thread.
    let ranOn = try #require(record.thread)
    try #require(pthread_equal(ranOn, pthread_self()) != 0)
    retained.release()
    // A thread to release, as Pango releases it at once.
    #expect(thread != nil)
    unref(thread)
  }

  @Test func otherThreads_AreGLibsOwn() throws {
    let threadNew = try Self.glibFunction(
      "g_thread_new",
      as: (@convention(c) (UnsafePointer<CChar>?, Function?, UnsafeMutableRawPointer?)
        -> UnsafeMutableRawPointer?).self)
    let join = try Self.glibFunction(
      "g_thread_join",
      as: (@convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?).self)
    let record = Record()
    let thread = threadNew(
      "[pango] FcInit", Self.recordThread, Unmanaged.passUnretained(record).toOpaque())
    _ = join(thread)
    let ranOn = try #require(record.thread)
    #expect(pthread_equal(ranOn, pthread_self()) == 0)
  }
}
