import Signals

/// Lays events out on the frame grid and names their values: the machinery behind
/// `Marble.diagram`.
enum MarblePrinter {
  /// Symbols printed in one frame: one event, a group of events at one tick, or `^`/`!` marks.
  struct Item {
    var time: Int
    var symbols: [Character]
    /// The index of the first event in the item, for notes (`nil` for a `^` on its own).
    var firstEvent: Int?
  }

  // MARK: Events

  /// Draws `events` (see `Marble.diagram(_:tick:)` for the rules).
  ///
  /// - Parameters:
  ///   - events: The events.
  ///   - tick: The length of one frame in attoseconds, for time progressions.
  ///   - longestDashRun: How many idle frames in a row print as dashes; `.max` for always.
  ///   - isSame: Whether two values are the same value (they then share a letter); `nil` to go by
  ///     their descriptions.
  ///   - named: The character a value prints as, if any (the key of a `values:` map that stands for
  ///     it); `nil` for the default, a one-character letter or digit printing as itself.
  ///   - reserved: Letters that already mean something to the reader (the keys of a `values:`
  ///     map), never given to a value that does not print as itself.
  /// - Returns: The diagram.
  static func diagram<Value, Failure: Error>(
    _ events: [Recorded<Event<Value, Failure>>], tick: Int128, longestDashRun: Int,
    isSame: ((Value, Value) -> Bool)?, named: ((Value) -> Character?)? = nil,
    reserved: Set<Character> = []
  ) -> MarbleDiagram<Value, Failure> {
    let drawn = diagram(
      events, tick: tick, longestDashRun: longestDashRun, isSame: isSame,
      onlyASCIIPrintsItself: false, named: named, reserved: reserved)
    guard drawn.diagram.marbles.count != drawn.characterCount else { return drawn.diagram }
    // Two characters printed side by side merged into one (Hangul jamo `ᄀ` and `ᅡ` make `가`):
    // draw again with only ASCII letters and digits printing as themselves. The printer's own
    // letters and symbols never merge.
    return diagram(
      events, tick: tick, longestDashRun: longestDashRun, isSame: isSame,
      onlyASCIIPrintsItself: true, named: named, reserved: reserved
    ).diagram
  }

  private static func diagram<Value, Failure: Error>(
    _ events: [Recorded<Event<Value, Failure>>], tick: Int128, longestDashRun: Int,
    isSame: ((Value, Value) -> Bool)?, onlyASCIIPrintsItself: Bool,
    named: ((Value) -> Character?)?, reserved: Set<Character>
  ) -> (diagram: MarbleDiagram<Value, Failure>, characterCount: Int) {
    func ownCharacter(_ value: Value) -> Character? {
      let character: Character?
      if let named { character = named(value) } else { character = Self.ownCharacter(value) }
      guard let character else { return nil }
      return !onlyASCIIPrintsItself || character.isASCII ? character : nil
    }
    // NB: one pass to find each value's own character (once, for both passes), the earliest time
    // and the events after a terminal one, and one pass to name values and group them: reading an
    // event is slow in unspecialized generic code, and so are `enumerated()` and key paths. ASCII
    // characters already seen skip the set and the dictionary.
    var ownCharacters: [Character?] = []
    ownCharacters.reserveCapacity(events.count)
    var selfPrinting = Set<Character>()
    var seenSelfPrinting = ASCIISet()
    var earliest = 0
    // Check the list is one a signal can send; note what cannot be drawn.
    var notes: [String] = []
    var previousIsTerminal = false
    for index in events.indices {
      let event = events[index]
      if event.time < earliest { earliest = event.time }
      if previousIsTerminal {
        notes.append(
          "\(event) comes after the terminal \(events[index - 1]): no marble can show it, so this "
            + "one does not parse")
      }
      previousIsTerminal = event.value.isTerminal
      if case .next(let value) = event.value, let character = ownCharacter(value) {
        ownCharacters.append(character)
        if seenSelfPrinting.insert(character) { selfPrinting.insert(character) }
      } else {
        ownCharacters.append(nil)
      }
    }
    var letters = LetterPool(skipping: selfPrinting.union(reserved))
    var values: [Character: Value] = [:]
    var valued = ASCIISet()
    var legend: [String] = []
    // Named values by description, so finding a value's letter is not a linear search.
    var named: [String: [(letter: Character, value: Value)]] = [:]
    var error: Failure?
    var unnamed = 0
    // Events of one tick share an item.
    var items: [Item] = []
    for index in events.indices {
      let event = events[index]
      let symbol: Character
      switch event.value {
      case .next(let value):
        if let character = ownCharacters[index] {
          if valued.insert(character), values[character] == nil { values[character] = value }
          symbol = character
        } else {
          let key = String(describing: value)
          if let known = named[key]?.first(where: { isSame?($0.value, value) ?? true }) {
            symbol = known.letter
          } else if let letter = letters.next() {
            values[letter] = value
            named[key, default: []].append((letter, value))
            legend.append("\(letter) = \(legendText(value))")
            symbol = letter
          } else {
            // More distinct values than letters: the rest cannot be drawn as themselves.
            unnamed += 1
            symbol = Self.unnamedValue
          }
        }
      case .error(let failure):
        if error == nil { error = failure }
        symbol = "#"
      case .completed:
        symbol = "|"
      }
      if let last = items.last, last.time == event.time {
        items[items.count - 1].symbols.append(symbol)
      } else {
        items.append(Item(time: event.time, symbols: [symbol], firstEvent: index))
      }
    }

    // Frame 0 is `^` when anything happens before it.
    var start = 0
    if earliest < 0 {
      start = earliest
      if let zero = items.firstIndex(where: { $0.time >= 0 }) {
        if items[zero].time == 0 {
          items[zero].symbols.insert("^", at: 0)
        } else {
          items.insert(Item(time: 0, symbols: ["^"], firstEvent: nil), at: zero)
        }
      } else {
        items.append(Item(time: 0, symbols: ["^"], firstEvent: nil))
      }
    }

    if unnamed > 0 {
      notes.append(
        "\(unnamed) value\(unnamed == 1 ? "" : "s") had no letter left (the diagram names "
          + "\(LetterPool.capacity(skipping: selfPrinting.union(reserved))) distinct values) and "
          + "\(unnamed == 1 ? "is" : "are") drawn as '\(Self.unnamedValue)', which does not parse")
    }
    let layout = self.layout(items, start: start, tick: tick, longestDashRun: longestDashRun)
    for (item, frame) in layout.misplaced {
      let event = items[item].firstEvent.map { "\(events[$0])" } ?? "the '^' at tick 0"
      notes.append(
        "\(event) is drawn at tick \(frame): it is earlier than the event before it, and time in a "
          + "marble only moves forward")
    }
    let diagram = MarbleDiagram(
      marbles: layout.marbles, values: values, error: error, legend: legend,
      isExact: notes.isEmpty, notes: notes, tick: MarbleTime.duration(attoseconds: tick))
    return (diagram, layout.characterCount)
  }

  /// What a value prints as when no letter is left for it: not a value character, so the marble
  /// does not parse, and the diagram says so.
  static let unnamedValue: Character = "?"

  /// The character a value prints as on its own: a one-character `String` or a `Character` that
  /// is a letter or digit.
  private static func ownCharacter<Value>(_ value: Value) -> Character? {
    let character: Character
    if Value.self == String.self {
      // NB: for speed, no dynamic cast when `Value` is `String`, and no counting of the
      // characters of a string of one byte.
      let string = unsafeBitCast(value, to: String.self)
      if string.utf8.count == 1, let byte = string.utf8.first {
        return MarbleScanner.isValueByte(byte) ? MarbleScanner.asciiCharacters[Int(byte)] : nil
      }
      guard string.count == 1, let first = string.first else { return nil }
      character = first
    } else if let string = value as? String {
      guard string.count == 1, let first = string.first else { return nil }
      character = first
    } else if let single = value as? Character {
      character = single
    } else {
      return nil
    }
    return MarbleScanner.isValueCharacter(character) ? character : nil
  }

  private static func legendText<Value>(_ value: Value) -> String {
    if let string = value as? String { return MessageBounds.valueText(String(reflecting: string)) }
    return MessageBounds.valueText(String(describing: value))
  }

  // MARK: Subscriptions

  static func subscriptionDiagram(
    _ subscription: Subscription, tick: Int128, longestDashRun: Int
  ) -> String {
    let subscribed = subscription.subscribed
    let items: [Item]
    switch subscription.disposed {
    case nil:
      items = [Item(time: subscribed, symbols: ["^"])]
    case let disposed? where disposed == subscribed:
      items = [Item(time: subscribed, symbols: ["^", "!"])]
    case let disposed? where disposed > subscribed:
      items = [Item(time: subscribed, symbols: ["^"]), Item(time: disposed, symbols: ["!"])]
    case let disposed?:
      // Never recorded: drawn as it is, and rejected by the parser ('!' before '^').
      items = [Item(time: disposed, symbols: ["!"]), Item(time: subscribed, symbols: ["^"])]
    }
    let start = min(0, items[0].time)
    var prefix = ""
    if start < 0 {
      // Never recorded: a negative time progression, which the parser rejects.
      let (attoseconds, overflow) = (-Int128(start)).multipliedReportingOverflow(by: tick)
      prefix = "-" + MarbleTime.millisecondsText(attoseconds: overflow ? .max : attoseconds) + " "
    }
    return prefix
      + layout(items, start: start, tick: tick, longestDashRun: longestDashRun).marbles
  }

  // MARK: Layout

  struct Layout {
    var marbles: String
    /// How many characters were printed; more than `marbles.count` if some merged into one
    /// `Character`.
    var characterCount: Int
    /// Items drawn later than their time (the list went back in time), with the tick drawn at.
    var misplaced: [(item: Int, frame: Int)]
  }

  /// Draws `items` from frame `start`: dashes or a time progression for each wait, `(…)` for a
  /// group that fits before the next item, `[…]` for one that does not.
  static func layout(_ items: [Item], start: Int, tick: Int128, longestDashRun: Int) -> Layout {
    var output: [Character] = []
    // Indices of digits printed where the parser might read a time progression.
    var suspects: [Int] = []
    var misplaced: [(item: Int, frame: Int)] = []
    var frame = start

    func wait(_ gap: Int128) {
      guard gap > longestDashRun || gap > Int.max else {
        output.append(contentsOf: repeatElement("-", count: Int(gap)))
        return
      }
      // Split only when one progression would not fit in an Int128 of attoseconds.
      let largestChunk = Int128.max / tick
      var remaining = gap
      while remaining > 0 {
        let chunk = min(remaining, largestChunk)
        if let last = output.last, !last.isMarbleWhitespace { output.append(" ") }
        output.append(contentsOf: MarbleTime.millisecondsText(attoseconds: chunk * tick))
        output.append(" ")
        remaining -= chunk
      }
    }

    for (index, item) in items.enumerated() {
      var time = item.time
      if time < frame {
        misplaced.append((index, frame))
        time = frame
      }
      wait(Int128(time) - Int128(frame))
      if item.symbols.count == 1 {
        let symbol = item.symbols[0]
        if symbol.isMarbleDigit {
          let count = output.count
          if count == 0 || output[count - 1].isMarbleWhitespace
            || (output[count - 1] == "-" && (count == 1 || output[count - 2].isMarbleWhitespace))
          {
            suspects.append(count)
          }
        }
        output.append(symbol)
        frame = time.clampedAdding(1)
      } else {
        let width = item.symbols.count + 2
        let fits = index + 1 == items.count || items[index + 1].time >= time.clampedAdding(width)
        output.append(fits ? "(" : "[")
        output.append(contentsOf: item.symbols)
        output.append(fits ? ")" : "]")
        frame = time.clampedAdding(fits ? width : 1)
      }
    }

    var suspectIndex = 0
    var wrapped = 0
    // NB: the text is built as UTF-8 bytes; appending `Character`s to a `String` one at a time is
    // slow.
    var bytes: [UInt8] = []
    bytes.reserveCapacity(output.count + 2 * suspects.count)
    func append(_ character: Character) {
      if let ascii = character.marbleASCII {
        bytes.append(ascii)
      } else {
        bytes.append(contentsOf: character.utf8)
      }
    }
    for index in output.indices {
      let character = output[index]
      if suspectIndex < suspects.count, suspects[suspectIndex] == index {
        suspectIndex += 1
        if MarbleScanner.readsAsTimeProgression(output, at: index) {
          bytes.append(UInt8(ascii: "["))
          append(character)
          bytes.append(UInt8(ascii: "]"))
          wrapped += 1
          continue
        }
      }
      append(character)
    }
    return Layout(
      marbles: String(decoding: bytes, as: UTF8.self), characterCount: output.count + 2 * wrapped,
      misplaced: misplaced)
  }
}

/// A set of ASCII characters, as bits.
private struct ASCIISet {
  private var low: UInt64 = 0
  private var high: UInt64 = 0

  /// Adds `character` if it is one ASCII byte; whether it was new, or is not ASCII (so the caller
  /// must look it up).
  mutating func insert(_ character: Character) -> Bool {
    guard let byte = character.marbleASCII else { return true }
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
private struct LetterPool {
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
