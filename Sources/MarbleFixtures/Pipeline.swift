import MarbleTesting
package import Signals

/// One step of a `pipeline:` line, checked before anything runs.
///
/// A pipeline carries text (`Signal<String, TestError>`), so the steps whose operator changes the
/// value type turn its values back into text: `combineLatest` and `zip` join a pair's two texts,
/// `buffer` joins an array's, `materialize` writes each event as `next(a)`, `error` or
/// `completed`, and `groupBy` flattens its groups back into one signal.
package enum PipelineStep: Sendable, Equatable {
  package enum SubjectKind: Sendable, Equatable {
    case plain
    case replay(capacity: Int)
    case behavior(initial: Character)
  }

  case publish
  case multicast(SubjectKind)
  case connect(at: Int)
  case disposeConnection(at: Int)
  case autoconnect
  case replay
  case replayLast
  case replayLazily
  case mapUppercased
  case mapLowercased
  case mapCharacters([Character: Character])
  case filter(Set<Character>)
  case take(Int)
  case startWith(Character)
  case ignoreValues
  case merge(String)
  case concat(String)
  case then(String)
  case catchTo(String)
  /// Feeds the signal into a `Channel`'s leading terminal (and the labelled source, if any, into its
  /// following terminal) and continues with the following terminal: what its subscribers receive.
  case channel(String?)
  /// Delays values and completion by T frames.
  case delay(Int)
  case debounce(Int)
  case throttle(Int, latest: Bool)
  case timeout(Int)
  case skip(Int)
  case takeLast(Int)
  case distinctUntilChanged
  /// Accumulates by joining the values' text.
  case scan
  case takeUntil(String)
  case sample(String)
  case retry(Int)
  case deliverOn
  case subscribeOn
  /// Maps every value to the labelled source, flattened with the strategy.
  case flattenMap(FlattenStrategy, String)
  /// Pairs with the labelled source's latest value; a pair is its two texts joined (`a`, `1` → `a1`).
  case combineLatest(String)
  /// Pairs in order with the labelled source's values; a pair is its two texts joined.
  case zip(String)
  /// Buffers for T frames or N values (no count: `Int.max`); an array is its texts joined.
  case buffer(Int, count: Int)
  /// Each event as a value: `next(a)` (the value's text), `error` or `completed`; never fails.
  case materialize
  /// Groups by the value's lowercased text (`a` and `A` share a group) and flattens the groups
  /// with the strategy: `merge` gives back the source's values, `concat` only the first group's
  /// (the others are hot and over by the time it completes), `latest` each newest group's.
  case groupByLowercased(FlattenStrategy)

  /// Every step name, for `--help` and for suggesting the nearest name to a typo.
  static let names = [
    "publish", "multicast", "connect", "dispose-connection", "autoconnect", "replay", "replayLast",
    "replayLazily", "map", "filter", "take", "startWith", "ignoreValues", "merge", "concat", "then",
    "catch", "channel", "delay", "debounce", "throttle", "timeout", "skip", "takeLast",
    "distinctUntilChanged", "scan", "takeUntil", "sample", "retry", "deliverOn", "subscribeOn",
    "flattenMap", "combineLatest", "zip", "buffer", "materialize", "groupBy",
  ]
}

/// A parsed `pipeline:` line: the source it starts from and its steps.
package struct Pipeline: Sendable {
  package var source: String
  package var steps: [PipelineStep]

  /// Reads `src | step | step(args) | step@T`.
  ///
  /// - Throws: A message and the 0-based offset in `text` of the offending part.
  package static func parse(_ text: String, sourceLabels: Set<String>) throws(PipelineError)
    -> Pipeline
  {
    var parts: [(text: String, offset: Int)] = []
    var offset = 0
    for part in text.split(separator: "|", omittingEmptySubsequences: false) {
      let leading = part.prefix { $0 == " " }.count
      let trimmed = String(part.dropFirst(leading)).replacing(/\s+$/, with: "")
      parts.append((trimmed, offset + leading))
      offset += part.count + 1
    }
    guard let first = parts.first, !first.text.isEmpty else {
      throw PipelineError(message: "the pipeline starts with a source's label", offset: 0)
    }
    guard sourceLabels.contains(first.text) else {
      throw PipelineError(
        message: "the pipeline starts from '\(first.text)', but the table's sources are "
          + sourceLabels.sorted().joined(separator: ", "),
        offset: first.offset)
    }
    var steps: [PipelineStep] = []
    for part in parts.dropFirst() {
      steps.append(try step(part.text, offset: part.offset, sourceLabels: sourceLabels))
    }
    return Pipeline(source: first.text, steps: steps)
  }

  private static func step(
    _ text: String, offset: Int, sourceLabels: Set<String>
  ) throws(PipelineError) -> PipelineStep {
    // name, then (args) or @T
    let nameEnd = text.firstIndex { $0 == "(" || $0 == "@" } ?? text.endIndex
    let name = String(text[..<nameEnd])
    var arguments: String?
    var time: Int?
    let rest = text[nameEnd...]
    if rest.hasPrefix("(") {
      guard rest.hasSuffix(")") else {
        throw PipelineError(
          message: "'\(name)(' is never closed with ')'", offset: offset + name.count)
      }
      arguments = String(rest.dropFirst().dropLast()).trimmingCharacters
    } else if rest.hasPrefix("@") {
      guard let frame = Int(rest.dropFirst()), frame >= 0 else {
        throw PipelineError(
          message: "'\(name)@' needs a frame number, like \(name)@5",
          offset: offset + name.count + 1)
      }
      time = frame
    } else if !rest.isEmpty {
      throw PipelineError(message: "unexpected '\(rest)'", offset: offset + name.count)
    }
    func noArguments(_ step: PipelineStep) throws(PipelineError) -> PipelineStep {
      guard arguments == nil, time == nil else {
        throw PipelineError(message: "'\(name)' takes no arguments", offset: offset + name.count)
      }
      return step
    }
    func argument(_ usage: String) throws(PipelineError) -> String {
      guard let arguments, !arguments.isEmpty else {
        throw PipelineError(message: "'\(name)' needs an argument: \(usage)", offset: offset)
      }
      return arguments
    }
    func label(_ usage: String) throws(PipelineError) -> String {
      let label = try argument(usage)
      guard sourceLabels.contains(label) else {
        throw PipelineError(
          message: "'\(label)' is not a source of this table; its sources are "
            + sourceLabels.sorted().joined(separator: ", "),
          offset: offset + name.count + 1)
      }
      return label
    }
    func character(_ usage: String) throws(PipelineError) -> Character {
      let text = try argument(usage)
      guard text.count == 1, let character = text.first else {
        throw PipelineError(
          message: "'\(name)' needs one value character: \(usage)", offset: offset)
      }
      return character
    }
    func count(_ usage: String) throws(PipelineError) -> Int {
      guard let value = Int(try argument(usage)), value >= 0 else {
        throw PipelineError(
          message: "'\(name)' needs a whole number of zero or more: \(usage)", offset: offset)
      }
      return value
    }
    func frame() throws(PipelineError) -> Int {
      guard let time else {
        throw PipelineError(message: "'\(name)' needs a frame: \(name)@T", offset: offset)
      }
      return time
    }
    switch name {
    case "publish": return try noArguments(.publish)
    case "autoconnect": return try noArguments(.autoconnect)
    case "replay": return try noArguments(.replay)
    case "replayLast": return try noArguments(.replayLast)
    case "replayLazily": return try noArguments(.replayLazily)
    case "ignoreValues": return try noArguments(.ignoreValues)
    case "connect": return .connect(at: try frame())
    case "dispose-connection": return .disposeConnection(at: try frame())
    case "merge": return .merge(try label("merge(label)"))
    case "concat": return .concat(try label("concat(label)"))
    case "then": return .then(try label("then(label)"))
    case "catch": return .catchTo(try label("catch(label)"))
    case "startWith": return .startWith(try character("startWith(x)"))
    case "delay":
      guard let frames = Int(try argument("delay(T), T frames")), frames >= 0 else {
        throw PipelineError(
          message: "'delay' needs a whole number of frames: delay(T)", offset: offset)
      }
      return .delay(frames)
    case "debounce": return .debounce(try count("debounce(T), T frames"))
    case "timeout": return .timeout(try count("timeout(T), T frames"))
    case "throttle":
      let words = try argument("throttle(T) or throttle(T latest)").split(separator: " ")
      guard let frames = words.first.flatMap({ Int($0) }), frames >= 0,
        words.count == 1 || (words.count == 2 && words[1] == "latest")
      else {
        throw PipelineError(
          message: "'throttle' takes T frames, optionally 'latest': throttle(3 latest)",
          offset: offset)
      }
      return .throttle(frames, latest: words.count == 2)
    case "skip": return .skip(try count("skip(N)"))
    case "takeLast": return .takeLast(try count("takeLast(N)"))
    case "retry": return .retry(try count("retry(N)"))
    case "distinctUntilChanged": return try noArguments(.distinctUntilChanged)
    case "scan": return try noArguments(.scan)
    case "deliverOn": return try noArguments(.deliverOn)
    case "subscribeOn": return try noArguments(.subscribeOn)
    case "takeUntil": return .takeUntil(try label("takeUntil(label)"))
    case "sample": return .sample(try label("sample(label)"))
    case "flattenMap":
      let words = try argument(
        "flattenMap(merge label), flattenMap(concat label) or flattenMap(latest label)"
      ).split(separator: " ")
      guard words.count == 2, let strategy = flattenStrategies[words[0]] else {
        throw PipelineError(
          message:
            "flattenMap takes a strategy (merge, concat or latest) and a source label: flattenMap(latest inner)",
          offset: offset + name.count + 1)
      }
      guard sourceLabels.contains(String(words[1])) else {
        throw PipelineError(
          message: "'\(words[1])' is not a source of this table; its sources are "
            + sourceLabels.sorted().joined(separator: ", "), offset: offset + name.count + 1)
      }
      return .flattenMap(strategy, String(words[1]))
    case "combineLatest": return .combineLatest(try label("combineLatest(label)"))
    case "zip": return .zip(try label("zip(label)"))
    case "materialize": return try noArguments(.materialize)
    case "buffer":
      let words = try argument("buffer(T) or buffer(T, N)").split { $0 == "," || $0 == " " }
      guard (1...2).contains(words.count), let frames = Int(words[0]), frames >= 0,
        let count = words.count == 2 ? Int(words[1]) : .max, count > 0
      else {
        throw PipelineError(
          message: "'buffer' takes T frames and optionally a count N of one or more: buffer(3) "
            + "or buffer(3, 2)", offset: offset + name.count + 1)
      }
      return .buffer(frames, count: count)
    case "groupBy":
      let words = try argument(
        "groupBy(lower merge), groupBy(lower concat) or groupBy(lower latest)"
      )
      .split(separator: " ")
      guard words.count == 2, words[0] == "lower", let strategy = flattenStrategies[words[1]] else {
        throw PipelineError(
          message: "groupBy takes the key 'lower' and a strategy (merge, concat or latest): "
            + "groupBy(lower merge)", offset: offset + name.count + 1)
      }
      return .groupByLowercased(strategy)
    case "channel":
      guard arguments != nil else { return try noArguments(.channel(nil)) }
      return .channel(try label("channel(label)"))
    case "take":
      guard let count = Int(try argument("take(N)")), count >= 0 else {
        throw PipelineError(
          message: "'take' needs a count of zero or more: take(N)", offset: offset)
      }
      return .take(count)
    case "filter":
      let kept = try argument("filter(a b c), the values to keep").filter { !$0.isWhitespace }
      return .filter(Set(kept))
    case "map":
      let how = try argument("map(upper), map(lower) or map(a>x b>y)")
      if how == "upper" { return .mapUppercased }
      if how == "lower" { return .mapLowercased }
      var table: [Character: Character] = [:]
      for pair in how.split(separator: " ") {
        let sides = pair.split(separator: ">")
        guard sides.count == 2, sides[0].count == 1, sides[1].count == 1 else {
          throw PipelineError(
            message: "map takes upper, lower, or pairs like a>x b>y (got '\(pair)')", offset: offset
          )
        }
        table[sides[0].first!] = sides[1].first!
      }
      return .mapCharacters(table)
    case "multicast":
      let kind = try argument(
        "multicast(subject), multicast(replay), multicast(replay N) or multicast(behavior x)")
      let words = kind.split(separator: " ")
      switch (words.first, words.count) {
      case ("subject", 1): return .multicast(.plain)
      case ("replay", 1): return .multicast(.replay(capacity: .max))
      case ("replay", 2):
        guard let capacity = Int(words[1]), capacity >= 0 else { break }
        return .multicast(.replay(capacity: capacity))
      case ("behavior", 2) where words[1].count == 1:
        return .multicast(.behavior(initial: words[1].first!))
      default: break
      }
      throw PipelineError(
        message: "multicast takes subject, replay, replay N or behavior x (got '\(kind)')",
        offset: offset + name.count + 1)
    default:
      let nearest = PipelineStep.names.min { distance($0, name) < distance($1, name) }!
      throw PipelineError(
        message: "unknown step '\(name)'; did you mean '\(nearest)'? The steps are "
          + PipelineStep.names.joined(separator: ", "),
        offset: offset)
    }
  }
}

/// The strategies `flattenMap` and `groupBy` name.
private let flattenStrategies: [Substring: FlattenStrategy] = [
  "merge": .merge, "concat": .concat, "latest": .latest,
]

/// A mistake in a `pipeline:` line: what, and where (0-based offset in the line's value).
package struct PipelineError: Error, Equatable {
  package var message: String
  package var offset: Int
}

/// The edit distance between two names (case-insensitive), for "did you mean".
func distance(_ a: String, _ b: String) -> Int {
  let a = Array(a.lowercased()), b = Array(b.lowercased())
  var previous = Array(0...b.count)
  for i in 1...max(1, a.count) where !a.isEmpty {
    var current = [i] + Array(repeating: 0, count: b.count)
    for j in stride(from: 1, through: b.count, by: 1) {
      current[j] = min(
        previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
    }
    previous = current
  }
  return a.isEmpty ? b.count : previous[b.count]
}

extension String {
  var trimmingCharacters: String {
    replacing(/^\s+|\s+$/, with: "")
  }
}
