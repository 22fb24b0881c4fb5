public import WaterflowScene

/// One image of a shot set: a scene in a locale and an appearance, on a device.
public struct Shot: Hashable, Sendable {
  public var locale: ShotFile.Locale
  public var appearance: Appearance
  public var device: Device
  public var scene: ShotFile.SceneEntry

  /// A shot of a scene in a locale and an appearance, on a device.
  public init(locale: ShotFile.Locale, appearance: Appearance, device: Device, scene: ShotFile.SceneEntry) {
    self.locale = locale
    self.appearance = appearance
    self.device = device
    self.scene = scene
  }

  /// Where the image goes in the output folder: `LOCALE/APPEARANCE/DEVICE/SCENE.png`.
  public var relativePath: String { "\(name).png" }

  /// `LOCALE/APPEARANCE/DEVICE/SCENE`: the image's path without `.png`, and the end of its
  /// golden name.
  public var name: String {
    "\(locale.name)/\(appearance.rawValue)/\(device.name)/\(scene.name)"
  }

  /// The value of a filter key (`locale`, `appearance`, `device`, `scene`).
  func value(of key: ShotFilter.Key) -> String {
    switch key {
    case .locale: locale.name
    case .appearance: appearance.rawValue
    case .device: device.name
    case .scene: scene.name
    }
  }
}

extension ShotFile {
  /// Every shot of the file, by locale, then appearance, device and scene: the order the
  /// contact sheet shows them in.
  ///
  /// - Complexity: O(locales × appearances × devices × scenes).
  public var shots: [Shot] {
    var shots: [Shot] = []
    for locale in locales {
      for appearance in appearances {
        for device in devices {
          for scene in scenes {
            shots.append(Shot(locale: locale, appearance: appearance, device: device, scene: scene))
          }
        }
      }
    }
    return shots
  }
}

/// `--only locale=ar,device=ipad-13`: the shots whose values match, several values of one key
/// meaning either.
public struct ShotFilter: Sendable {
  /// What a filter can pick by.
  public enum Key: String, CaseIterable, Sendable {
    case locale, appearance, device, scene
  }

  /// The accepted values by key; a key not given accepts every value.
  public var values: [Key: Set<String>] = [:]

  /// A filter that keeps every shot.
  public init() {}

  /// Reads `key=value,key=value`, checking keys and values against a shot file.
  ///
  /// - Throws: ``ShotSetError`` naming the unknown key or value and the choices.
  public init(parsing text: String, for file: ShotFile) throws(ShotSetError) {
    let all = file.shots
    for part in text.split(separator: ",") {
      let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let keys = Key.allCases.map(\.rawValue).joined(separator: ", ")
      guard pieces.count == 2, let key = Key(rawValue: String(pieces[0])) else {
        throw ShotSetError(
          "--only: \"\(part)\" is not key=value with a key of \(keys) (such as locale=ar,device=ipad-13)")
      }
      let value = String(pieces[1])
      let known = Set(all.map { $0.value(of: key) })
      guard known.contains(value) else {
        throw ShotSetError(
          "--only: \(file.path) has no \(key.rawValue) \"\(value)\" (its \(key.rawValue)s: \(known.sorted().joined(separator: ", ")))")
      }
      values[key, default: []].insert(value)
    }
  }

  /// Whether a shot passes.
  public func accepts(_ shot: Shot) -> Bool {
    values.allSatisfy { key, accepted in accepted.contains(shot.value(of: key)) }
  }
}

/// One slice of a shot set, `i/n` as in `golden check --shard`: contiguous, in order, the
/// slices 1/n … n/n together exactly the set.
public struct ShotShard: Hashable, Sendable, CustomStringConvertible {
  /// The slice, from 1.
  public var index: Int
  /// The number of slices.
  public var count: Int

  /// Reads `i/n` with 1 ≤ i ≤ n.
  public init(parsing text: String) throws(ShotSetError) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, i >= 1, i <= n
    else {
      throw ShotSetError(
        "The value '\(text)' is invalid for '--shard <i/n>': use two whole numbers with 1 ≤ i ≤ n, such as 2/3.")
    }
    index = i
    count = n
  }

  public var description: String { "\(index)/\(count)" }

  /// This slice's part of the shots.
  public func select(_ shots: [Shot]) -> [Shot] {
    Array(shots[shots.count * (index - 1) / count..<shots.count * index / count])
  }
}

/// A problem with a shot set: one message naming the file or option at fault.
public struct ShotSetError: Error, CustomStringConvertible, Sendable {
  public var description: String
  public init(_ description: String) { self.description = description }
}
