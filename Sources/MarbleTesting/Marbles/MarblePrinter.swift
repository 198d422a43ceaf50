import Signals

/// Lays events out on the frame grid and names their values: the machinery behind
/// `Marble.diagram`.
enum MarblePrinter {
  /// What a diagram prints, in order: items, each the symbols printed in one frame — one event, a
  /// group of events at one tick, or `^`/`!` marks.
  ///
  /// NB: the symbols of all items are kept in one list, for speed: an array per item is slow.
  struct Items {
    struct Item {
      var time: Int
      /// Where its symbols start in ``Items/symbols``; they end where the next item's start.
      var start: Int
      /// The index of the first event in the item, for notes; -1 for a `^` on its own.
      ///
      /// NB: not an optional, which would make an item 32 bytes instead of 24.
      var firstEventIndex: Int

      /// The index of the first event in the item, for notes (`nil` for a `^` on its own).
      var firstEvent: Int? { firstEventIndex < 0 ? nil : firstEventIndex }
    }

    private(set) var list: [Item] = []
    private(set) var symbols: MarbleCharacters
    /// The time of the last item in ``list``.
    private var lastTime = 0

    init(capacity: Int = 0) {
      list.reserveCapacity(capacity)
      symbols = MarbleCharacters(reservingCapacity: capacity)
    }

    /// The symbols of the item at `index`, as indices into ``symbols``.
    func symbols(of index: Int) -> Range<Int> {
      list[index].start..<(index + 1 < list.count ? list[index + 1].start : symbols.count)
    }

    /// Adds the symbol `character` at `time`: to the last item if it is at `time`, else as a new
    /// item.
    mutating func append(_ character: Character, at time: Int, firstEvent: Int?) {
      startItem(at: time, firstEvent: firstEvent)
      symbols.append(character)
    }

    /// Adds the one-byte ASCII symbol `ascii` at `time`, as ``append(_:at:firstEvent:)`` does.
    mutating func append(ascii: UInt8, at time: Int, firstEvent: Int?) {
      startItem(at: time, firstEvent: firstEvent)
      symbols.append(ascii: ascii)
    }

    /// Puts the symbol at `index` of ``symbols`` to `character`.
    mutating func replaceSymbol(at index: Int, with character: Character) {
      symbols.replace(at: index, with: character)
    }

    /// Adds the one-byte ASCII mark `mark` at `time`: first in the first item at `time` or later,
    /// if it is at `time`, else as a new item before it.
    mutating func insert(_ mark: UInt8, at time: Int) {
      guard let first = list.firstIndex(where: { $0.time >= time }) else {
        append(ascii: mark, at: time, firstEvent: nil)
        return
      }
      let position = list[first].start
      symbols.insert(ascii: mark, at: position)
      let joins = list[first].time == time
      for later in (joins ? first + 1 : first)..<list.count { list[later].start += 1 }
      if !joins { list.insert(Item(time: time, start: position, firstEventIndex: -1), at: first) }
    }

    private mutating func startItem(at time: Int, firstEvent: Int?) {
      guard !list.isEmpty, lastTime == time else {
        list.append(Item(time: time, start: symbols.count, firstEventIndex: firstEvent ?? -1))
        lastTime = time
        return
      }
      let last = list.count - 1
      if list[last].firstEventIndex < 0 { list[last].firstEventIndex = firstEvent ?? -1 }
    }
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
    guard drawn.merged else { return drawn.diagram }
    // Two characters printed side by side merged into one (Hangul jamo `ᄀ` and `ᅡ` make `가`):
    // draw again with only ASCII letters and digits printing as themselves. The printer's own
    // letters and symbols never merge.
    return diagram(
      events, tick: tick, longestDashRun: longestDashRun, isSame: isSame,
      onlyASCIIPrintsItself: true, named: named, reserved: reserved
    ).diagram
  }

  // NB: `String` values with `TestError`s — what `Marble.parse` gives and many tests record —
  // skip the unspecialized generic code: the generic body checks the types first and calls a
  // version specialized for these.
  @_specialize(where Value == String, Failure == TestError)
  private static func diagram<Value, Failure: Error>(
    _ events: [Recorded<Event<Value, Failure>>], tick: Int128, longestDashRun: Int,
    isSame: ((Value, Value) -> Bool)?, onlyASCIIPrintsItself: Bool,
    named: ((Value) -> Character?)?, reserved: Set<Character>
  ) -> (diagram: MarbleDiagram<Value, Failure>, merged: Bool) {
    func ownSymbol(_ value: Value) -> OwnSymbol {
      let symbol: OwnSymbol
      if let named {
        guard let character = named(value) else { return .none }
        symbol = OwnSymbol(character)
      } else {
        symbol = Self.ownSymbol(value)
      }
      guard case .character(let character) = symbol, onlyASCIIPrintsItself, !character.isASCII
      else { return symbol }
      return .none
    }
    // NB: one pass reads each event and lays it out, and a second reads again only the values
    // that get letters, once every value printing as itself is known (letters skip those): reading
    // an event is slow in unspecialized generic code, and so are `enumerated()` and key paths.
    // ASCII characters already seen skip the sets and the dictionary.
    var items = Items(capacity: events.count)
    // Values that get letters: the event, and where its symbol is in `items`.
    var needLetters: [(event: Int, symbol: Int)] = []
    var selfPrinting = Set<Character>()
    var seenSelfPrinting = ASCIISet()
    var values: [Character: Value] = [:]
    var error: Failure?
    var earliest = 0
    // Check the list is one a signal can send; note what cannot be drawn.
    var notes: [String] = []
    var previousIsTerminal = false
    events.withUnsafeBufferPointer { events in
      for index in events.indices {
        let time = events[index].time
        if time < earliest { earliest = time }
        if previousIsTerminal {
          notes.append(
            "\(events[index]) comes after the terminal \(events[index - 1]): no marble can show it, "
              + "so this one does not parse")
        }
        switch events[index].value {
        case .next(let value):
          previousIsTerminal = false
          switch ownSymbol(value) {
          case .none:
            needLetters.append((index, items.symbols.count))
            items.append(ascii: UInt8(ascii: "?"), at: time, firstEvent: index)
          case .ascii(let byte):
            items.append(ascii: byte, at: time, firstEvent: index)
            if seenSelfPrinting.insert(byte: byte) {
              let character = MarbleScanner.asciiCharacters[Int(byte)]
              selfPrinting.insert(character)
              if values[character] == nil { values[character] = value }
            }
          case .character(let character):
            items.append(character, at: time, firstEvent: index)
            selfPrinting.insert(character)
            if values[character] == nil { values[character] = value }
          }
        case .error(let failure):
          previousIsTerminal = true
          if error == nil { error = failure }
          items.append(ascii: UInt8(ascii: "#"), at: time, firstEvent: index)
        case .completed:
          previousIsTerminal = true
          items.append(ascii: UInt8(ascii: "|"), at: time, firstEvent: index)
        }
      }
    }

    var letters = LetterPool(skipping: selfPrinting.union(reserved))
    var legend: [String] = []
    // Named values by description, so finding a value's letter is not a linear search.
    var named: [String: [(letter: Character, value: Value)]] = [:]
    var unnamed = 0
    for (index, symbol) in needLetters {
      guard case .next(let value) = events[index].value else { continue }
      let letter: Character
      let key = String(describing: value)
      if let known = named[key]?.first(where: { isSame?($0.value, value) ?? true }) {
        letter = known.letter
      } else if let next = letters.next() {
        values[next] = value
        named[key, default: []].append((next, value))
        legend.append("\(next) = \(legendText(value))")
        letter = next
      } else {
        // More distinct values than letters: the rest cannot be drawn as themselves.
        unnamed += 1
        letter = Self.unnamedValue
      }
      items.replaceSymbol(at: symbol, with: letter)
    }
    // Frame 0 is `^` when anything happens before it.
    if earliest < 0 { items.insert(UInt8(ascii: "^"), at: 0) }

    if unnamed > 0 {
      notes.append(
        "\(unnamed) value\(unnamed == 1 ? "" : "s") had no letter left (the diagram names "
          + "\(LetterPool.capacity(skipping: selfPrinting.union(reserved))) distinct values) and "
          + "\(unnamed == 1 ? "is" : "are") drawn as '\(Self.unnamedValue)', which does not parse")
    }
    let layout = self.layout(
      items, start: min(earliest, 0), tick: tick, longestDashRun: longestDashRun)
    for (item, frame) in layout.misplaced {
      let event = items.list[item].firstEvent.map { "\(events[$0])" } ?? "the '^' at tick 0"
      notes.append(
        "\(event) is drawn at tick \(frame): it is earlier than the event before it, and time in a "
          + "marble only moves forward")
    }
    let diagram = MarbleDiagram(
      marbles: layout.marbles, values: values, error: error, legend: legend,
      isExact: notes.isEmpty, notes: notes, tick: MarbleTime.duration(attoseconds: tick))
    return (diagram, layout.merged)
  }

  /// What a value prints as when no letter is left for it: not a value character, so the marble
  /// does not parse, and the diagram says so.
  static let unnamedValue: Character = "?"

  /// What a value prints as on its own.
  ///
  /// NB: an ASCII character is kept as its byte, for speed: making and reading `Character`s is
  /// slow.
  private enum OwnSymbol {
    /// Nothing: the value gets a letter.
    case none
    /// A character that is one ASCII byte (not `\r`).
    case ascii(UInt8)
    /// Any other character.
    case character(Character)

    init(_ character: Character) {
      if let ascii = character.marbleSimpleASCII {
        self = .ascii(ascii)
      } else {
        self = .character(character)
      }
    }
  }

  /// What a value prints as on its own: a one-character `String` or a `Character` that is a
  /// letter or digit.
  private static func ownSymbol<Value>(_ value: Value) -> OwnSymbol {
    let character: Character
    if Value.self == String.self {
      // NB: for speed, no dynamic cast when `Value` is `String`, and no counting of the
      // characters of a string of one byte.
      let string = unsafeBitCast(value, to: String.self)
      let utf8 = string.utf8
      if utf8.count == 1 {
        let byte = utf8[utf8.startIndex]
        return MarbleScanner.isValueByte(byte) ? .ascii(byte) : .none
      }
      guard string.count == 1, let first = string.first else { return .none }
      character = first
    } else if let string = value as? String {
      guard string.count == 1, let first = string.first else { return .none }
      character = first
    } else if let single = value as? Character {
      character = single
    } else {
      return .none
    }
    return MarbleScanner.isValueCharacter(character) ? OwnSymbol(character) : .none
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
    var items = Items()
    switch subscription.disposed {
    case nil:
      items.append("^", at: subscribed, firstEvent: nil)
    case let disposed? where disposed >= subscribed:
      items.append("^", at: subscribed, firstEvent: nil)
      items.append("!", at: disposed, firstEvent: nil)
    case let disposed?:
      // Never recorded: drawn as it is, and rejected by the parser ('!' before '^').
      items.append("!", at: disposed, firstEvent: nil)
      items.append("^", at: subscribed, firstEvent: nil)
    }
    let start = min(0, items.list[0].time)
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
    /// Whether some characters printed side by side merged into one `Character`.
    var merged: Bool
    /// Items drawn later than their time (the list went back in time), with the tick drawn at.
    var misplaced: [(item: Int, frame: Int)]
  }

  /// Draws `items` from frame `start`: dashes or a time progression for each wait, `(…)` for a
  /// group that fits before the next item, `[…]` for one that does not.
  static func layout(_ items: Items, start: Int, tick: Int128, longestDashRun: Int) -> Layout {
    let symbols = items.symbols
    let list = items.list
    var output = MarbleCharacters(reservingCapacity: 3 * symbols.count)
    // Indices of digits printed where the parser might read a time progression.
    var suspects: [Int] = []
    var misplaced: [(item: Int, frame: Int)] = []
    var frame = start

    func wait(_ gap: Int128) {
      guard gap > 0 else { return }
      guard gap > longestDashRun || gap > Int.max else {
        output.append(ascii: UInt8(ascii: "-"), count: Int(gap))
        return
      }
      // Split only when one progression would not fit in an Int128 of attoseconds.
      let largestChunk = Int128.max / tick
      var remaining = gap
      while remaining > 0 {
        let chunk = min(remaining, largestChunk)
        if output.count > 0, !output.isWhitespace(at: output.count - 1) {
          output.append(ascii: UInt8(ascii: " "))
        }
        output.append(asciiText: MarbleTime.millisecondsText(attoseconds: chunk * tick))
        output.append(ascii: UInt8(ascii: " "))
        remaining -= chunk
      }
    }

    for index in list.indices {
      var time = list[index].time
      if time < frame {
        misplaced.append((index, frame))
        time = frame
      }
      wait(Int128(time) - Int128(frame))
      let range = items.symbols(of: index)
      if range.count == 1 {
        if symbols.digit(at: range.lowerBound) != nil,
          MarbleScanner.mayStartTimeProgression(output, at: output.count)
        {
          suspects.append(output.count)
        }
        output.append(symbols, from: range.lowerBound, to: range.upperBound)
        frame = time.clampedAdding(1)
      } else {
        let width = range.count + 2
        let fits = index + 1 == list.count || list[index + 1].time >= time.clampedAdding(width)
        output.append(ascii: fits ? UInt8(ascii: "(") : UInt8(ascii: "["))
        output.append(symbols, from: range.lowerBound, to: range.upperBound)
        output.append(ascii: fits ? UInt8(ascii: ")") : UInt8(ascii: "]"))
        frame = time.clampedAdding(fits ? width : 1)
      }
    }

    let wrapped = suspects.filter { MarbleScanner.readsAsTimeProgression(output, at: $0) }
    let marbles = output.string(bracketing: wrapped)
    // Only characters that are not ASCII can merge (`\r` is not ASCII here).
    let merged = !output.isASCII && marbles.count != output.count + 2 * wrapped.count
    return Layout(marbles: marbles, merged: merged, misplaced: misplaced)
  }
}
