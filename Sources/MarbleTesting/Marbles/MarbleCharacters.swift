/// The characters of one marble line, as the scanner reads them and the printer writes them: the
/// byte of each character that is one ASCII byte, and the characters themselves only when some are
/// not.
///
/// NB: for speed. The grammar is ASCII, so both sides work on bytes: a line of ASCII bytes other
/// than CR (the only ASCII byte that joins the next one into one `Character`, `\r\n`) is its bytes,
/// and no `Character` is made for it. Only a line with other characters also keeps an array of
/// them, one per character, as `Array(marbles)` gives them.
struct MarbleCharacters {
  /// What ``codes`` holds for a character that is not one ASCII byte.
  static let other: UInt8 = 0xFF

  /// One per character: its byte if it is one ASCII byte, else ``other``.
  private(set) var codes: [UInt8]
  /// One per character if any is not one ASCII byte; else empty.
  private var characters: [Character] = []

  /// An empty line, to append to.
  init(reservingCapacity capacity: Int = 0) {
    codes = []
    codes.reserveCapacity(capacity)
  }

  /// The characters of `marbles`.
  init(_ marbles: String) {
    let bytes = Array(marbles.utf8)
    if !bytes.contains(where: { $0 >= 0x80 || $0 == 0x0D }) {
      codes = bytes
    } else {
      characters = Array(marbles)
      codes = characters.map { $0.marbleASCII ?? Self.other }
    }
  }

  /// How many characters there are.
  var count: Int { codes.count }

  /// Whether every character is one ASCII byte.
  var isASCII: Bool { characters.isEmpty }

  /// The character at `index`.
  subscript(index: Int) -> Character {
    characters.isEmpty ? MarbleScanner.asciiCharacters[Int(codes[index])] : characters[index]
  }

  /// The character at `index`, as a string.
  ///
  /// - Parameters:
  ///   - index: The index.
  ///   - asciiStrings: ``asciiStrings``.
  func string(at index: Int, asciiStrings: [String]) -> String {
    let code = codes[index]
    return code == Self.other ? String(characters[index]) : asciiStrings[Int(code)]
  }

  /// The 128 one-byte ASCII strings, by byte.
  static let asciiStrings: [String] = (0..<128).map {
    String(Character(Unicode.Scalar(UInt8($0))))
  }

  /// The characters from `start` up to `end`, as a string.
  func string(from start: Int, to end: Int) -> String {
    guard characters.isEmpty else { return String(characters[start..<end]) }
    return String(decoding: codes[start..<end], as: UTF8.self)
  }

  /// Whether the character at `index` is whitespace.
  func isWhitespace(at index: Int) -> Bool {
    let code = codes[index]
    return code == Self.other
      ? characters[index].isWhitespace : MarbleScanner.isWhitespaceByte(code)
  }

  /// Whether the character at `index` is a line break.
  func isNewline(at index: Int) -> Bool {
    let code = codes[index]
    return code == Self.other ? characters[index].isNewline : (0x0A...0x0D).contains(code)
  }

  /// Whether the character at `index` is a value character on its own: a letter or a digit.
  func isValueCharacter(at index: Int) -> Bool {
    let code = codes[index]
    return code == Self.other
      ? MarbleScanner.isValueCharacter(characters[index]) : MarbleScanner.isValueByte(code)
  }

  /// The value of the character at `index` if it is an ASCII digit `0`–`9`.
  func digit(at index: Int) -> Int? {
    let code = codes[index]
    return (0x30...0x39).contains(code) ? Int(code - 0x30) : nil
  }

  /// Appends the one-byte ASCII character `ascii`.
  mutating func append(ascii: UInt8) {
    codes.append(ascii)
    if !characters.isEmpty { characters.append(MarbleScanner.asciiCharacters[Int(ascii)]) }
  }

  /// Appends `count` copies of the one-byte ASCII character `ascii`.
  mutating func append(ascii: UInt8, count: Int) {
    // NB: a loop, faster than `append(contentsOf:)` for the few characters of a wait.
    for _ in 0..<count { codes.append(ascii) }
    if !characters.isEmpty {
      characters.append(
        contentsOf: repeatElement(MarbleScanner.asciiCharacters[Int(ascii)], count: count))
    }
  }

  /// Appends the ASCII text `text`.
  mutating func append(asciiText text: String) {
    for byte in text.utf8 { append(ascii: byte) }
  }

  /// Appends `character`.
  mutating func append(_ character: Character) {
    if let ascii = character.marbleSimpleASCII {
      append(ascii: ascii)
      return
    }
    keepCharacters()
    codes.append(character.marbleASCII ?? Self.other)
    characters.append(character)
  }

  /// Puts the character at `index` to `character`.
  mutating func replace(at index: Int, with character: Character) {
    if let ascii = character.marbleSimpleASCII {
      codes[index] = ascii
      if !characters.isEmpty { characters[index] = character }
      return
    }
    keepCharacters()
    codes[index] = character.marbleASCII ?? Self.other
    characters[index] = character
  }

  /// Starts keeping the characters themselves, for a character that is not one ASCII byte.
  private mutating func keepCharacters() {
    if characters.isEmpty { characters = codes.map { MarbleScanner.asciiCharacters[Int($0)] } }
  }

  /// Inserts the one-byte ASCII character `ascii` at `index`.
  mutating func insert(ascii: UInt8, at index: Int) {
    codes.insert(ascii, at: index)
    if !characters.isEmpty {
      characters.insert(MarbleScanner.asciiCharacters[Int(ascii)], at: index)
    }
  }

  /// Appends the characters from `start` up to `end` of `other`.
  mutating func append(_ other: MarbleCharacters, from start: Int, to end: Int) {
    if other.isASCII, end == start + 1 {
      append(ascii: other.codes[start])
    } else if other.isASCII {
      codes.append(contentsOf: other.codes[start..<end])
      if !characters.isEmpty {
        characters.append(
          contentsOf: other.codes[start..<end].lazy.map { MarbleScanner.asciiCharacters[Int($0)] })
      }
    } else {
      for index in start..<end { append(other[index]) }
    }
  }

  /// The characters as a string, each character at an index of `bracketed` (in increasing
  /// order) between `[` and `]`.
  ///
  /// NB: the text is written as UTF-8 bytes straight into the string's storage; appending
  /// `Character`s to a `String` one at a time is slow.
  func string(bracketing bracketed: [Int]) -> String {
    let length =
      characters.isEmpty
      ? codes.count : characters.reduce(0) { $0 + $1.utf8.count }
    return String(unsafeUninitializedCapacity: length + 2 * bracketed.count) { buffer in
      var written = 0
      func write(from start: Int, to end: Int) {
        guard !characters.isEmpty else {
          let count = end - start
          codes.withUnsafeBufferPointer { codes in
            _ = UnsafeMutableBufferPointer(rebasing: buffer[written..<written + count])
              .initialize(from: codes[start..<end])
          }
          written += count
          return
        }
        for character in characters[start..<end] {
          for byte in character.utf8 {
            buffer[written] = byte
            written += 1
          }
        }
      }
      var copied = 0
      for index in bracketed {
        write(from: copied, to: index)
        buffer[written] = UInt8(ascii: "[")
        written += 1
        write(from: index, to: index + 1)
        buffer[written] = UInt8(ascii: "]")
        written += 1
        copied = index + 1
      }
      write(from: copied, to: codes.count)
      return written
    }
  }
}
