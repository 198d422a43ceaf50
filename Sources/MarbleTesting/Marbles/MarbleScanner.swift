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
    enum Kind: UInt8 {
      /// A value; its character is the one at ``ScannedEvent/index``.
      case value
      case completed
      case failed
    }

    var frame: Int
    /// Its index in the string, in `Character`s.
    var index: Int
    var kind: Kind
  }

  /// The marks found; the events go to the scanner's `event` function as they are found.
  struct Result {
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
  ///   - text: Its characters, `MarbleCharacters(marbles)`.
  ///   - mode: Events or a subscription.
  ///   - tick: The length of one frame, in attoseconds.
  ///   - position: Where the marble sits, for error positions.
  ///   - checksKeys: Whether values come from a `values:` map, checked with `hasKey`.
  ///   - hasKey: Whether the map has a value for a character.
  ///   - event: Called with each event found, in order, at its frame from the start of the string.
  /// - Returns: The marks, at frames from the start of the string.
  /// - Throws: ``MarbleSyntaxError`` at the first mistake (or what `event` throws).
  ///
  /// NB: the events go to a function rather than into an array, which a caller would copy into
  /// its own: for speed and memory.
  static func scan(
    _ marbles: String, text: MarbleCharacters, mode: Mode, tick: Int128,
    position: Marble.SourcePosition, checksKeys: Bool, hasKey: (Character) -> Bool,
    event: (ScannedEvent) throws(MarbleSyntaxError) -> Void = { _ in }
  ) throws(MarbleSyntaxError) -> Result {
    let codes = text.codes
    let count = codes.count
    var result = Result()
    var frame = 0
    // Set when a time progression carried the frame past `Int.max`; placing anything after that
    // is an error (a trailing long time progression alone is harmless).
    var overflowed = false
    // NB: no `Character`s in these, which every `if let` would copy: the opener and the terminal
    // symbol are the characters at their indices.
    var group: (isRound: Bool, index: Int, frame: Int, members: Int)?
    var terminal: Int?
    var subscriptionIndex: Int?
    var unsubscriptionIndex: Int?

    func error(_ message: String, at index: Int) -> MarbleSyntaxError {
      MarbleSyntaxError(
        message: message, line: position.line, column: position.column + index,
        sourceLine: position.sourceLine ?? marbles)
    }
    func column(_ index: Int) -> Int { position.column + index }
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
      // NB: the grammar is ASCII, so the dispatch is on the byte; comparing `Character`s and
      // reading their properties is slow. Anything else (0xFF) is a value, a key or a mistake.
      let code = codes[index]
      if text.isNewline(at: index) {
        throw error("a marble is one line; found a line break", at: index)
      }
      if text.isWhitespace(at: index) {
        index += 1
        continue
      }
      switch code {
      case UInt8(ascii: "-"):
        if Self.isWordStart(text, index), index + 1 < count,
          (0x30...0x39).contains(codes[index + 1]),
          timeProgression(text, at: index + 1) != .none
        {
          throw error(
            "negative time progression '\(word(text, from: index))'; time only moves "
              + "forward", at: index)
        }
        if let group, !group.isRound {
          throw error("a '-' cannot go inside a one-frame group '[…]'", at: index)
        }
        // NB: the dashes that follow are read at once, for speed: none starts a word.
        var run = 1
        while index + run < count, codes[index + run] == UInt8(ascii: "-") { run += 1 }
        advance(by: run)
        index += run - 1

      case UInt8(ascii: "("), UInt8(ascii: "["):
        if let group {
          throw error(
            "groups cannot nest: '\(text[index])' inside the group opened at column "
              + "\(column(group.index))", at: index)
        }
        let isRound = code == UInt8(ascii: "(")
        group = (isRound, index, frame, 0)
        if isRound { advance(by: 1) }

      case UInt8(ascii: ")"), UInt8(ascii: "]"):
        guard let open = group else {
          throw error("'\(text[index])' closes no group", at: index)
        }
        let closer: Character = open.isRound ? ")" : "]"
        guard code == (open.isRound ? UInt8(ascii: ")") : UInt8(ascii: "]")) else {
          throw error(
            "'\(text[index])' cannot close the '\(text[open.index])' at column \(column(open.index)); "
              + "expected '\(closer)'", at: index)
        }
        guard open.members > 0 else {
          let contents =
            if case .subscription = mode { "a '^' or '!'" } else { "at least one event" }
          throw error(
            "empty group '\(text[open.index])\(closer)'; a group holds \(contents)",
            at: open.index)
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
          throw error(notInSubscription(text[index]), at: index)
        }
        if let terminal {
          throw error(
            afterTerminal(text[index], text[terminal], column(terminal)), at: index)
        }
        let kind: ScannedEvent.Kind = code == UInt8(ascii: "|") ? .completed : .failed
        try event(ScannedEvent(frame: try placementFrame(at: index), index: index, kind: kind))
        terminal = index
        placed()

      default:
        if (0x30...0x39).contains(code), Self.isWordStart(text, index) {
          switch timeProgression(text, at: index) {
          case .none:
            break
          case .malformed(let length, let reason):
            let written = text.string(from: index, to: index + length)
            throw error("malformed time progression '\(written)': \(reason)", at: index)
          case .timeProgression(let length, let attoseconds):
            let written = text.string(from: index, to: index + length)
            if group != nil {
              throw error("a time progression ('\(written)') cannot go inside a group", at: index)
            }
            guard let attoseconds,
              let ticks = MarbleTime.ticks(attoseconds: attoseconds, tick: tick)
            else {
              throw error("time progression '\(written)' is too long", at: index)
            }
            advance(by: ticks)
            index += length
            continue
          }
        }
        guard case .events = mode else {
          throw error(notInSubscription(text[index]), at: index)
        }
        let isValue = text.isValueCharacter(at: index)
        guard isValue || (checksKeys && hasKey(text[index])) else {
          throw error(
            "unexpected character '\(text[index])'; a value is a letter, a digit, or a key of the "
              + "values: map", at: index)
        }
        if let terminal {
          throw error(
            afterTerminal(text[index], text[terminal], column(terminal)), at: index)
        }
        if checksKeys, !hasKey(text[index]) {
          throw error(
            "'\(text[index])' has no value: it is not a key of the values: map", at: index)
        }
        try event(ScannedEvent(frame: try placementFrame(at: index), index: index, kind: .value))
        placed()
      }
      index += 1
    }

    if let group {
      throw error("'\(text[group.index])' is never closed", at: group.index)
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

  /// The byte of a character that is one ASCII byte other than CR, else `nil`: a character that
  /// a line of bytes can hold as its byte (a CR followed by a line feed would join it into one
  /// `Character`, `\r\n`).
  var marbleSimpleASCII: UInt8? {
    guard let ascii = marbleASCII, ascii != 0x0D else { return nil }
    return ascii
  }

  /// `isWhitespace`, answered from the byte for ASCII.
  ///
  /// NB: `isWhitespace` looks up Unicode properties; ASCII whitespace is tab, line feed, vertical
  /// tab, form feed, carriage return and space.
  var isMarbleWhitespace: Bool {
    guard let ascii = marbleASCII else { return isWhitespace }
    return MarbleScanner.isWhitespaceByte(ascii)
  }

}
