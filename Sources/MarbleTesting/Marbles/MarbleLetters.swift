// The letters the printer gives values that print as no character of their own.

/// A set of ASCII characters, as bits.
struct ASCIISet {
  private var low: UInt64 = 0
  private var high: UInt64 = 0

  /// Adds the ASCII byte `byte`; whether it was new.
  mutating func insert(byte: UInt8) -> Bool {
    let bit: UInt64 = 1 << (byte & 63)
    if byte < 64 {
      defer { low |= bit }
      return low & bit == 0
    }
    defer { high |= bit }
    return high & bit == 0
  }
}

/// Letters for values that do not print as themselves: `a`–`z`, `A`–`Z`, then Greek and CJK
/// letters (tens of thousands), skipping characters already used.
struct LetterPool {
  private static let ranges: [ClosedRange<UInt32>] = [
    0x61...0x7A,  // a–z
    0x41...0x5A,  // A–Z
    0x3B1...0x3C9,  // α–ω
    0x391...0x3A9,  // Α–Ω
    0x4E00...0x9FFF,  // CJK unified ideographs
    0x3400...0x4DBF,  // CJK extension A
    0xAC00...0xD7A3,  // Hangul syllables
  ]

  private let skipping: Set<Character>
  private var range = 0
  private var cursor: UInt32 = 0x61

  init(skipping: Set<Character>) {
    self.skipping = skipping
  }

  /// How many letters a pool skipping `skipping` hands out.
  static func capacity(skipping: Set<Character>) -> Int {
    var pool = LetterPool(skipping: skipping)
    var count = 0
    while pool.next() != nil { count += 1 }
    return count
  }

  /// The next letter, or `nil` when every one has been handed out.
  mutating func next() -> Character? {
    while true {
      guard range < Self.ranges.count else { return nil }
      if cursor > Self.ranges[range].upperBound {
        range += 1
        if range < Self.ranges.count { cursor = Self.ranges[range].lowerBound }
        continue
      }
      let scalar = Unicode.Scalar(cursor)
      cursor += 1
      guard let scalar else { continue }
      let letter = Character(scalar)
      if letter.isLetter, !skipping.contains(letter) { return letter }
    }
  }
}
