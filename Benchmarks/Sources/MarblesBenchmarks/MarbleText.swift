import MarbleTesting
import Signals

/// Phase f: parse a 1 MB marble diagram to events and print the events back.
enum MarbleText {
  /// A deterministic ~1 MB diagram in the printer's own form, so that printing the parsed events
  /// gives back the same text: single values (letters, and digits where they cannot read as a time
  /// progression) and runs of up to 32 dashes, `(…)` groups of 2–4 values, and time progressions
  /// (`a 120ms b`) for longer waits; a `|` at the end.
  static let diagram: String = {
    let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
    let lettersAndDigits = letters + Array("0123456789".utf8)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(1 << 20)
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func random(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    var dashRun = 0
    var afterProgression = false
    func value() {
      // A digit after whitespace would start a time progression; a letter never does.
      let pool = afterProgression || bytes.isEmpty ? letters : lettersAndDigits
      bytes.append(pool[random(pool.count)])
      dashRun = 0
      afterProgression = false
    }
    func dashes(_ count: Int) {
      // More than 32 idle frames in a row print as a time progression.
      let count = min(count, 32 - dashRun)
      bytes.append(contentsOf: repeatElement(UInt8(ascii: "-"), count: count))
      dashRun += count
    }
    value()
    while bytes.count < 1_000_000 - 16 {
      switch random(20) {
      case 0..<9:
        value()
        dashes(random(4))
      case 9..<13:
        dashes(1 + random(8))
      case 13..<17 where !afterProgression:
        bytes.append(UInt8(ascii: "("))
        for _ in 0..<(2 + random(3)) { value() }
        bytes.append(UInt8(ascii: ")"))
      case 17 where dashRun == 0 && !afterProgression:
        // The printer writes a wait right after an event, with no dashes before it.
        bytes.append(contentsOf: " \(33 + random(500))ms ".utf8)
        afterProgression = true
        value()
      default:
        value()
      }
    }
    bytes.append(UInt8(ascii: "|"))
    return String(decoding: bytes, as: UTF8.self)
  }()

  /// `Marble.parse` then `Marble.diagram`; the printed text must equal the input, so neither half
  /// can be dropped or cut short.
  static func marbles() -> Int {
    let events = try! Marble.parse(diagram)
    let printed = Marble.diagram(events).marbles
    precondition(printed == diagram)
    return events.count
  }
}
