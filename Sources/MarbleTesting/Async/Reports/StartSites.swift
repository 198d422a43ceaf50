import CMarbleRuntime

/// Where a world's tasks were started, for its reports: the return addresses of the code that
/// created a task, captured when the world takes it, and named — by the symbol tables, demangled —
/// only when a report needs them. "task 2 (started in FeedModel.load())": the first frame that is
/// neither Swift's runtime nor Marbles'. Only the function is known, not the line (that would take
/// the debug information); a task whose creator's frames are all the runtime's (a task-group child
/// started by `addTask`, whose frame is the group's) is named by the function around it where the
/// frames reach it.
enum StartSites {
  /// The return addresses of a task's start, kept in place: a world takes every task its work
  /// creates, and an array of them was two allocations per task.
  struct Frames {
    /// The addresses as captured, this type's own caller first; `count` of them are set.
    fileprivate var captured:
      (
        UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt, UInt,
        UInt
      ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    fileprivate var count = 0

    /// How many frames a task's start keeps, with the capture's own.
    static let depth = 16

    /// The addresses, innermost first, without the capture's own frame.
    var addresses: [UInt] {
      withUnsafeBytes(of: captured) { bytes in
        Array(bytes.bindMemory(to: UInt.self).prefix(count).dropFirst())
      }
    }
  }

  /// The frames of the code running here, innermost first (``Frames/addresses`` leaves out this
  /// function's own).
  static func capture() -> Frames {
    var frames = Frames()
    frames.count = withUnsafeMutableBytes(of: &frames.captured) { bytes in
      let addresses = bytes.bindMemory(to: UnsafeMutableRawPointer?.self)
      return Int(marbles_backtrace(addresses.baseAddress!, Int32(Frames.depth)))
    }
    return frames
  }

  /// The function a suspended task waits in, from its chain of async frames: the first that is
  /// neither Swift's runtime nor Marbles' (an `AsyncStream`'s `next()` is the runtime's; the
  /// function whose `for await` called it is named). `nil` where it cannot be read.
  static func function(waitingIn task: MarblesJobRef) -> String? {
    var frames = [UnsafeMutableRawPointer?](repeating: nil, count: 32)
    let count = Int(marbles_task_async_frames(task, &frames, 32))
    // NB: a resume function is the start of a partial function, not a return address: one byte
    // on is inside it, as `demangledName(of:)` steps one back.
    return function(startedFrom: frames.prefix(count).map { UInt(bitPattern: $0) &+ 1 })
  }

  /// The function a task was started in, from the frames of its start: the first that is neither
  /// Swift's runtime and standard library nor Marbles'.
  static func function(startedFrom frames: [UInt]) -> String? {
    for frame in frames {
      guard let name = demangledName(of: frame), !isInfrastructure(name) else { continue }
      return shortName(name)
    }
    return nil
  }

  /// The demangled name of the Swift function whose code holds `address`.
  static func demangledName(of address: UInt) -> String? {
    // NB: a return address points after the call; one byte back is inside the caller.
    guard let pointer = UnsafeRawPointer(bitPattern: address &- 1) else { return nil }
    var buffer = [CChar](repeating: 0, count: 2048)
    guard marbles_swift_function_name(pointer, &buffer, buffer.count) else { return nil }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Whether a demangled name is Swift's runtime's or standard library's, Marbles', or a thunk.
  private static func isInfrastructure(_ demangled: String) -> Bool {
    let name = String(owner(of: demangled))
    return name.hasPrefix("Swift.") || name.hasPrefix("(extension in Swift)")
      || name.hasPrefix("_Concurrency.") || name.hasPrefix("(extension in _Concurrency)")
      || name.hasPrefix("MarbleTesting.") || name.hasPrefix("(extension in MarbleTesting)")
      || name.hasPrefix("Signals.") || name.hasPrefix("Marbles.")
      || name.contains("thunk") || name.contains("partial apply")
  }

  /// A demangled name as a report says it: the function around a closure, its type and name
  /// without the module, and its argument labels — `FeedModel.load()`.
  static func shortName(_ demangled: String) -> String {
    var name = Substring(withoutPrivateDiscriminators(String(owner(of: demangled))))
    // The module: the first component.
    if let dot = name.firstIndex(of: "."), !name[..<dot].contains("(") {
      name = name[name.index(after: dot)...]
    }
    // The signature: up to the parenthesis that closes the first one.
    if let open = name.firstIndex(of: "(") {
      var depth = 0
      var end = name.endIndex
      for index in name[open...].indices {
        if name[index] == "(" { depth += 1 }
        if name[index] == ")" {
          depth -= 1
          if depth == 0 {
            end = name.index(after: index)
            break
          }
        }
      }
      name = name[..<end]
    }
    return String(name)
  }

  /// A demangled name without the file discriminators of private names: `(load in _3F…)` is
  /// `load`.
  static func withoutPrivateDiscriminators(_ name: String) -> String {
    var result = ""
    var rest = Substring(name)
    let marker = Array(" in _")
    while let open = rest.firstIndex(of: "(") {
      result += rest[..<open]
      let inner = rest[rest.index(after: open)...]
      // `(name in _HEX)`: a name of word characters, the marker, hex digits, the parenthesis.
      let word = inner.prefix { $0.isLetter || $0.isNumber || $0 == "_" }
      let after = inner[word.endIndex...]
      if !word.isEmpty, Array(after.prefix(marker.count)) == marker {
        let digits = after.dropFirst(marker.count).prefix { $0.isHexDigit }
        let end = digits.endIndex
        if !digits.isEmpty, end < after.endIndex, after[end] == ")" {
          result += word
          rest = after[after.index(after: end)...]
          continue
        }
      }
      result += "("
      rest = inner
    }
    return result + rest
  }

  /// The named function a demangled name is, or is inside of: for "closure #1 … in X" (and
  /// "implicit closure", "variable initialization expression of X"), X; without kind words.
  private static func owner(of demangled: String) -> Substring {
    var name = Substring(withoutKind(demangled))
    while name.contains("closure #"), let after = firstTopLevelEnd(of: " in ", in: name) {
      name = Substring(withoutKind(String(name[after...])))
    }
    let initializer = "variable initialization expression of "
    if name.hasPrefix(initializer) {
      name = Substring(withoutKind(String(name.dropFirst(initializer.count))))
    }
    return name
  }

  /// A demangled name without the kind words before it (`static`, `merged`, …).
  private static func withoutKind(_ name: String) -> String {
    var name = Substring(name)
    // "(1) suspend resume partial function for X", "(2) await resume partial function for X".
    let partial = " partial function for "
    if name.hasPrefix("("), let after = firstTopLevelEnd(of: partial, in: name) {
      name = name[after...]
    }
    for kind in ["merged ", "static ", "dispatch thunk of ", "@objc "] where name.hasPrefix(kind) {
      name = name.dropFirst(kind.count)
    }
    return String(name)
  }

  /// Where the first `separator` in `text` that is outside every parenthesis and bracket ends.
  private static func firstTopLevelEnd(of separator: String, in text: Substring) -> Substring.Index?
  {
    let pattern = Array(separator.utf8)
    let bytes = Array(text.utf8)
    var depth = 0
    var offset = 0
    while offset + pattern.count <= bytes.count {
      switch bytes[offset] {
      case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "<"): depth += 1
      case UInt8(ascii: ")"), UInt8(ascii: "]"): depth -= 1
      // NB: the `>` of an arrow (`->`) closes nothing.
      case UInt8(ascii: ">") where offset == 0 || bytes[offset - 1] != UInt8(ascii: "-"): depth -= 1
      default: break
      }
      if depth == 0, Array(bytes[offset..<offset + pattern.count]) == pattern {
        return text.utf8.index(text.utf8.startIndex, offsetBy: offset + pattern.count)
      }
      offset += 1
    }
    return nil
  }
}
