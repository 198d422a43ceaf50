// The scanner's characters — which are values, whitespace, the start of a word — and its time
// progressions (`10ms`, `1.5s`), read by RxJS's rules.
extension MarbleScanner {
  /// The 128 ASCII characters, by byte.
  static let asciiCharacters: [Character] = (0..<128).map { Character(Unicode.Scalar(UInt8($0))) }

  /// Whether the ASCII byte `ascii` is whitespace: tab, line feed, vertical tab, form feed,
  /// carriage return or space.
  static func isWhitespaceByte(_ ascii: UInt8) -> Bool {
    ascii == 0x20 || (0x09...0x0D).contains(ascii)
  }

  /// Whether `character` is a value character on its own: a letter or a digit. (A key of a
  /// `values:` map is one too.)
  static func isValueCharacter(_ character: Character) -> Bool {
    // NB: ASCII is answered from the byte; `isLetter` and `isNumber` look up Unicode properties.
    if let ascii = character.marbleASCII { return isValueByte(ascii) }
    return character.isLetter || character.isNumber
  }

  /// Whether the one-byte character `ascii` is a value character: an ASCII letter or digit.
  static func isValueByte(_ ascii: UInt8) -> Bool {
    (0x30...0x39).contains(ascii) || (0x41...0x5A).contains(ascii) || (0x61...0x7A).contains(ascii)
  }

  /// Whether a time progression may start at `index`: at the start of the string or after
  /// whitespace.
  static func isWordStart(_ text: MarbleCharacters, _ index: Int) -> Bool {
    index == 0 || text.isWhitespace(at: index - 1)
  }

  /// Whether a digit at `index` would be where a time progression can be read: at the start of a
  /// word, or right after a `-` that starts a word (a negative one, which the parser rejects).
  static func mayStartTimeProgression(_ text: MarbleCharacters, at index: Int) -> Bool {
    isWordStart(text, index)
      || (index > 0 && text.codes[index - 1] == UInt8(ascii: "-") && isWordStart(text, index - 1))
  }

  /// Whether the parser would read the digit at `index` — at the start of a word, or right after a
  /// `-` that starts a word — as (part of) a time progression rather than as a value.
  static func readsAsTimeProgression(_ text: MarbleCharacters, at index: Int) -> Bool {
    text.digit(at: index) != nil && mayStartTimeProgression(text, at: index)
      && timeProgression(text, at: index) != .none
  }

  /// The characters from `index` up to the next whitespace.
  static func word(_ text: MarbleCharacters, from index: Int) -> String {
    text.string(from: index, to: wordEnd(text, from: index))
  }

  private static func wordEnd(_ text: MarbleCharacters, from index: Int) -> Int {
    var end = index
    while end < text.count, !text.isWhitespace(at: end) { end += 1 }
    return end
  }

  // MARK: Time progression

  /// Reads a time progression at `start` (an ASCII digit): digits, an optional `.` and digits, a
  /// unit (`ms`, `s` or `m`), then whitespace or the end of the string.
  ///
  /// RxJS requires a space after the unit, so its parser reads a time progression at the very end
  /// of a string (`a 10ms`) as the values `1`, `0`, `m`, `s`; here the end of the string ends it
  /// too. Digits with a unit followed by a letter or digit are values, as in RxJS (`10msa`); with a
  /// fraction, or followed by anything else, they are a mistake.
  static func timeProgression(_ text: MarbleCharacters, at start: Int) -> TimeProgressionScan {
    let codes = text.codes
    let count = codes.count
    var end = start
    var whole: Int128? = 0
    while end < count, let digit = text.digit(at: end) {
      whole = whole.flatMap { timesTenPlus($0, digit) }
      end += 1
    }
    var hasFraction = false
    // The first 18 fraction digits, exactly; a nonzero digit after those rounds up.
    var fraction: Int128 = 0
    var fractionDigits = 0
    var fractionRoundsUp = false
    if end < count, codes[end] == UInt8(ascii: ".") {
      hasFraction = true
      end += 1
      let fractionStart = end
      while end < count, let digit = text.digit(at: end) {
        if fractionDigits < 18 {
          fraction = fraction * 10 + Int128(digit)
          fractionDigits += 1
        } else if digit != 0 {
          fractionRoundsUp = true
        }
        end += 1
      }
      if end == fractionStart {
        return .malformed(
          length: wordEnd(text, from: start) - start, reason: "expected digits after '.'")
      }
    }

    let unit: Int128
    let unitLength: Int
    if end + 1 < count, codes[end] == UInt8(ascii: "m"), codes[end + 1] == UInt8(ascii: "s") {
      (unit, unitLength) = (MarbleTime.attosecondsPerMillisecond, 2)
    } else if end < count, codes[end] == UInt8(ascii: "s") {
      (unit, unitLength) = (MarbleTime.attosecondsPerSecond, 1)
    } else if end < count, codes[end] == UInt8(ascii: "m") {
      (unit, unitLength) = (MarbleTime.attosecondsPerMinute, 1)
    } else {
      guard hasFraction else { return .none }
      return .malformed(
        length: wordEnd(text, from: start) - start,
        reason: "expected a unit (ms, s or m) after the number")
    }
    end += unitLength
    if end < count, !text.isWhitespace(at: end) {
      if !hasFraction, text.isValueCharacter(at: end) { return .none }
      return .malformed(
        length: wordEnd(text, from: start) - start,
        reason: "expected a space after the unit")
    }

    for _ in fractionDigits..<18 { fraction *= 10 }
    if fractionRoundsUp { fraction += 1 }
    // fraction < 10^18 + 1 and unit <= 6 * 10^19, so the product fits in an Int128.
    let fractionProduct = fraction * unit
    let fractionAttoseconds =
      fractionProduct / MarbleTime.attosecondsPerSecond
      + (fractionProduct % MarbleTime.attosecondsPerSecond == 0 ? 0 : 1)
    var attoseconds: Int128?
    if let whole {
      let (product, overflow) = whole.multipliedReportingOverflow(by: unit)
      if !overflow {
        let (sum, overflow) = product.addingReportingOverflow(fractionAttoseconds)
        attoseconds = overflow ? nil : sum
      }
    }
    return .timeProgression(length: end - start, attoseconds: attoseconds)
  }

  private static func timesTenPlus(_ value: Int128, _ digit: Int) -> Int128? {
    let (product, overflow) = value.multipliedReportingOverflow(by: 10)
    guard !overflow else { return nil }
    let (sum, overflowAgain) = product.addingReportingOverflow(Int128(digit))
    return overflowAgain ? nil : sum
  }
}
