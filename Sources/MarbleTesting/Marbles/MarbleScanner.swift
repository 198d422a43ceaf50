/// The syntax of one marble line — frames, groups, time progressions, `^` and `!` — without values.
///
/// ``Marble`` maps the characters it finds to values; the printer asks it whether a digit it is
/// about to print would be read as the start of a time progression. The scanner never traps: any
/// string either scans or throws a ``MarbleSyntaxError``, and every step moves forward, so it
/// cannot hang.
enum MarbleScanner {
  /// What kind of marble is being read.
  enum Mode {
    /// Events: values, `|`, `#`, and `^` if the marble may have a subscription point.
    case events(allowsSubscriptionPoint: Bool)
    /// A subscription: only `^`, `!`, frames, groups and time progressions.
    case subscription
  }

  /// One event found, at a frame counted from the start of the string.
  struct ScannedEvent {
    enum Kind {
      case value(Character)
      case completed
      case failed
    }

    var frame: Int
    var kind: Kind
    /// Its index in the string, in `Character`s.
    var index: Int
  }

  struct Result {
    var events: [ScannedEvent] = []
    /// The frame of `^`, from the start of the string.
    var subscriptionFrame: Int?
    /// The frame of `!`, from the start of the string.
    var unsubscriptionFrame: Int?
  }

  /// What a digit at the start of a word begins.
  enum TimeProgressionScan: Equatable {
    /// Not a time progression: the digit is a value (as in RxJS, `12ab` is four values).
    case none
    /// A time progression `length` characters long, lasting `attoseconds` (`nil` if that does not
    /// fit in an `Int128`).
    case timeProgression(length: Int, attoseconds: Int128?)
    /// Something that can only be a mistyped time progression (`1.5` with no unit, `10ms|` with no
    /// space after the unit), `length` characters long.
    case malformed(length: Int, reason: String)
  }

  // MARK: Scanning

  /// Reads `marbles`.
  ///
  /// - Parameters:
  ///   - marbles: One line of marbles.
  ///   - mode: Events or a subscription.
  ///   - tick: The length of one frame, in attoseconds.
  ///   - position: Where the marble sits, for error positions.
  ///   - checksKeys: Whether values come from a `values:` map, checked with `hasKey`.
  ///   - hasKey: Whether the map has a value for a character.
  /// - Returns: The events and marks, at frames from the start of the string.
  /// - Throws: ``MarbleSyntaxError`` at the first mistake.
  static func scan(
    _ marbles: String, mode: Mode, tick: Int128, position: Marble.SourcePosition,
    checksKeys: Bool, hasKey: (Character) -> Bool
  ) throws(MarbleSyntaxError) -> Result {
    let (characters, codes) = Self.characters(of: marbles)
    let count = characters.count
    var result = Result()
    var frame = 0
    // Set when a time progression carried the frame past `Int.max`; placing anything after that
    // is an error (a trailing long time progression alone is harmless).
    var overflowed = false
    var group: (opener: Character, isRound: Bool, index: Int, frame: Int, members: Int)?
    var terminal: (symbol: Character, index: Int)?
    var subscriptionIndex: Int?
    var unsubscriptionIndex: Int?

    func error(_ message: String, at index: Int) -> MarbleSyntaxError {
      MarbleSyntaxError(
        message: message, line: position.line, column: position.column + index,
        sourceLine: position.sourceLine ?? marbles)
    }
    func column(_ index: Int) -> Int { position.column + index }
    func isWordStart(_ index: Int) -> Bool {
      index == 0
        || (codes[index - 1] == 0xFF
          ? characters[index - 1].isWhitespace : Self.isWhitespaceByte(codes[index - 1]))
    }
    func advance(by ticks: Int) {
      let (sum, overflow) = frame.addingReportingOverflow(ticks)
      if overflow {
        frame = .max
        overflowed = true
      } else {
        frame = sum
      }
    }
    /// The frame for something placed now (a group's members all share the group's frame).
    func placementFrame(at index: Int) throws(MarbleSyntaxError) -> Int {
      guard !overflowed else {
        throw error("the marble runs past the last tick (Int.max)", at: index)
      }
      return group?.frame ?? frame
    }
    /// Moves past something placed: one frame, except inside a one-frame `[…]` group.
    func placed() {
      guard let current = group else { return advance(by: 1) }
      group?.members += 1
      if current.isRound { advance(by: 1) }
    }

    var index = 0
    while index < count {
      let character = characters[index]
      // NB: the grammar is ASCII, so the dispatch is on the byte; comparing `Character`s and
      // reading their properties is slow. Anything else (0xFF) is a value, a key or a mistake.
      let code = codes[index]
      if code == 0xFF ? character.isNewline : (0x0A...0x0D).contains(code) {
        throw error("a marble is one line; found a line break", at: index)
      }
      if code == 0xFF ? character.isWhitespace : Self.isWhitespaceByte(code) {
        index += 1
        continue
      }
      switch code {
      case UInt8(ascii: "-"):
        if isWordStart(index), index + 1 < count, (0x30...0x39).contains(codes[index + 1]),
          timeProgression(characters, at: index + 1) != .none
        {
          throw error(
            "negative time progression '\(word(characters, from: index))'; time only moves "
              + "forward", at: index)
        }
        if let group, !group.isRound {
          throw error("a '-' cannot go inside a one-frame group '[…]'", at: index)
        }
        advance(by: 1)

      case UInt8(ascii: "("), UInt8(ascii: "["):
        if let group {
          throw error(
            "groups cannot nest: '\(character)' inside the group opened at column "
              + "\(column(group.index))", at: index)
        }
        let isRound = code == UInt8(ascii: "(")
        group = (character, isRound, index, frame, 0)
        if isRound { advance(by: 1) }

      case UInt8(ascii: ")"), UInt8(ascii: "]"):
        guard let open = group else {
          throw error("'\(character)' closes no group", at: index)
        }
        let closer: Character = open.isRound ? ")" : "]"
        guard code == (open.isRound ? UInt8(ascii: ")") : UInt8(ascii: "]")) else {
          throw error(
            "'\(character)' cannot close the '\(open.opener)' at column \(column(open.index)); "
              + "expected '\(closer)'", at: index)
        }
        guard open.members > 0 else {
          let contents =
            if case .subscription = mode { "a '^' or '!'" } else { "at least one event" }
          throw error(
            "empty group '\(open.opener)\(closer)'; a group holds \(contents)", at: open.index)
        }
        group = nil
        if open.isRound {
          advance(by: 1)
        } else {
          frame = open.frame
          advance(by: 1)
        }

      case UInt8(ascii: "^"):
        if case .events(let allowsSubscriptionPoint) = mode, !allowsSubscriptionPoint {
          throw error(
            "'^' marks a hot signal's subscription point; a cold marble cannot have one",
            at: index)
        }
        if let first = subscriptionIndex {
          throw error(
            "a second '^'; a marble has at most one subscription point (the first is at column "
              + "\(column(first)))", at: index)
        }
        if let unsubscription = unsubscriptionIndex {
          throw error(
            "'^' comes after the '!' at column \(column(unsubscription)); a subscription starts "
              + "before it ends", at: index)
        }
        result.subscriptionFrame = try placementFrame(at: index)
        subscriptionIndex = index
        placed()

      case UInt8(ascii: "!"):
        guard case .subscription = mode else {
          throw error(
            "'!' marks an unsubscription and belongs only in subscription marbles", at: index)
        }
        if result.unsubscriptionFrame != nil {
          throw error(
            "a second '!'; a subscription marble has at most one unsubscription point", at: index)
        }
        result.unsubscriptionFrame = try placementFrame(at: index)
        unsubscriptionIndex = index
        placed()

      case UInt8(ascii: "|"), UInt8(ascii: "#"):
        if case .subscription = mode {
          throw error(notInSubscription(character), at: index)
        }
        if let terminal {
          throw error(afterTerminal(character, terminal.symbol, column(terminal.index)), at: index)
        }
        let kind: ScannedEvent.Kind = code == UInt8(ascii: "|") ? .completed : .failed
        result.events.append(
          ScannedEvent(frame: try placementFrame(at: index), kind: kind, index: index))
        terminal = (character, index)
        placed()

      default:
        if (0x30...0x39).contains(code), isWordStart(index) {
          switch timeProgression(characters, at: index) {
          case .none:
            break
          case .malformed(let length, let reason):
            let text = String(characters[index..<index + length])
            throw error("malformed time progression '\(text)': \(reason)", at: index)
          case .timeProgression(let length, let attoseconds):
            let text = String(characters[index..<index + length])
            if group != nil {
              throw error("a time progression ('\(text)') cannot go inside a group", at: index)
            }
            guard let attoseconds,
              let ticks = MarbleTime.ticks(attoseconds: attoseconds, tick: tick)
            else {
              throw error("time progression '\(text)' is too long", at: index)
            }
            advance(by: ticks)
            index += length
            continue
          }
        }
        guard case .events = mode else {
          throw error(notInSubscription(character), at: index)
        }
        let isValue = code == 0xFF ? isValueCharacter(character) : isValueByte(code)
        guard isValue || (checksKeys && hasKey(character)) else {
          throw error(
            "unexpected character '\(character)'; a value is a letter, a digit, or a key of the "
              + "values: map", at: index)
        }
        if let terminal {
          throw error(afterTerminal(character, terminal.symbol, column(terminal.index)), at: index)
        }
        if checksKeys, !hasKey(character) {
          throw error("'\(character)' has no value: it is not a key of the values: map", at: index)
        }
        result.events.append(
          ScannedEvent(frame: try placementFrame(at: index), kind: .value(character), index: index))
        placed()
      }
      index += 1
    }

    if let group {
      throw error("'\(group.opener)' is never closed", at: group.index)
    }
    if case .subscription = mode, subscriptionIndex == nil {
      // `-----!` subscribes at frame 0, as RxJS's `expectObservable` reads it.
      guard unsubscriptionIndex != nil else {
        throw error("a subscription marble needs a '^' (or a '!', subscribing at frame 0)", at: 0)
      }
      result.subscriptionFrame = 0
    }
    return result
  }

  private static func notInSubscription(_ character: Character) -> String {
    "'\(character)' does not belong in a subscription marble, which holds only '-', '^', '!', "
      + "groups and time progressions"
  }

  private static func afterTerminal(
    _ character: Character, _ terminal: Character, _ column: Int
  ) -> String {
    "'\(character)' comes after the '\(terminal)' at column \(column); nothing may follow a "
      + "terminal event"
  }

  // MARK: Characters

  /// The characters of `marbles`, as `Array(marbles)` gives them, and the byte of each one that
  /// is one ASCII byte (`marbleASCII`), 0xFF for each other.
  ///
  /// NB: for speed, a string of ASCII bytes other than CR (the only ASCII byte that can join the
  /// next one, `\r\n`, into one `Character`) is split byte by byte, with no grapheme breaking,
  /// into `Character`s copied from a table.
  static func characters(of marbles: String) -> (characters: [Character], codes: [UInt8]) {
    let isSimpleASCII = marbles.utf8.allSatisfy { $0 < 0x80 && $0 != 0x0D }
    guard isSimpleASCII else {
      let characters = Array(marbles)
      return (characters, characters.map { $0.marbleASCII ?? 0xFF })
    }
    let codes = Array(marbles.utf8)
    let table = asciiCharacters
    return (codes.map { table[Int($0)] }, codes)
  }

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
  static func isWordStart(_ characters: [Character], _ index: Int) -> Bool {
    index == 0 || characters[index - 1].isMarbleWhitespace
  }

  /// Whether the parser would read the digit at `index` — at the start of a word, or right after a
  /// `-` that starts a word — as (part of) a time progression rather than as a value.
  static func readsAsTimeProgression(_ characters: [Character], at index: Int) -> Bool {
    guard characters[index].isMarbleDigit else { return false }
    let startsWord =
      isWordStart(characters, index)
      || (index > 0 && characters[index - 1] == "-" && isWordStart(characters, index - 1))
    return startsWord && timeProgression(characters, at: index) != .none
  }

  /// The characters from `index` up to the next whitespace.
  private static func word(_ characters: [Character], from index: Int) -> String {
    String(characters[index..<wordEnd(characters, from: index)])
  }

  private static func wordEnd(_ characters: [Character], from index: Int) -> Int {
    var end = index
    while end < characters.count, !characters[end].isMarbleWhitespace { end += 1 }
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
  static func timeProgression(_ characters: [Character], at start: Int) -> TimeProgressionScan {
    let count = characters.count
    var end = start
    var whole: Int128? = 0
    while end < count, let digit = characters[end].marbleDigitValue {
      whole = whole.flatMap { timesTenPlus($0, digit) }
      end += 1
    }
    var hasFraction = false
    // The first 18 fraction digits, exactly; a nonzero digit after those rounds up.
    var fraction: Int128 = 0
    var fractionDigits = 0
    var fractionRoundsUp = false
    if end < count, characters[end] == "." {
      hasFraction = true
      end += 1
      let fractionStart = end
      while end < count, let digit = characters[end].marbleDigitValue {
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
          length: wordEnd(characters, from: start) - start, reason: "expected digits after '.'")
      }
    }

    let unit: Int128
    let unitLength: Int
    if end + 1 < count, characters[end] == "m", characters[end + 1] == "s" {
      (unit, unitLength) = (MarbleTime.attosecondsPerMillisecond, 2)
    } else if end < count, characters[end] == "s" {
      (unit, unitLength) = (MarbleTime.attosecondsPerSecond, 1)
    } else if end < count, characters[end] == "m" {
      (unit, unitLength) = (MarbleTime.attosecondsPerMinute, 1)
    } else {
      guard hasFraction else { return .none }
      return .malformed(
        length: wordEnd(characters, from: start) - start,
        reason: "expected a unit (ms, s or m) after the number")
    }
    end += unitLength
    if end < count, !characters[end].isMarbleWhitespace {
      if !hasFraction, isValueCharacter(characters[end]) { return .none }
      return .malformed(
        length: wordEnd(characters, from: start) - start,
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

extension Character {
  /// The byte of a character that is one ASCII byte, else `nil` (also for `\r\n`, two bytes).
  ///
  /// NB: for speed; `asciiValue` compares with `\r\n` and decodes the first scalar, and the
  /// scanner and printer ask for every character.
  var marbleASCII: UInt8? {
    let utf8 = self.utf8
    guard utf8.count == 1 else { return nil }
    return utf8.first
  }

  /// `isWhitespace`, answered from the byte for ASCII.
  ///
  /// NB: `isWhitespace` looks up Unicode properties; ASCII whitespace is tab, line feed, vertical
  /// tab, form feed, carriage return and space.
  var isMarbleWhitespace: Bool {
    guard let ascii = marbleASCII else { return isWhitespace }
    return MarbleScanner.isWhitespaceByte(ascii)
  }

  /// Whether this is one of the ASCII digits `0`–`9`.
  var isMarbleDigit: Bool { marbleDigitValue != nil }

  /// The value of an ASCII digit `0`–`9`, else `nil`.
  var marbleDigitValue: Int? {
    guard let ascii = marbleASCII, ascii >= 0x30, ascii <= 0x39 else { return nil }
    return Int(ascii - 0x30)
  }
}
