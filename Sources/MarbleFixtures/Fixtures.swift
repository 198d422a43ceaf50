package import MarbleTesting
import Signals

/// Reads and runs fixture files: strings in, results out. The `marbles` command and the test
/// suite both go through here.
package enum Fixtures {
  /// The version `marbles --version` prints.
  package static let version = "0.1.0"

  /// Runs a scenario's table through its pipeline and compares every expectation.
  ///
  /// - Parameter scenario: The scenario.
  /// - Returns: Whether it passed, and the table as run (with `was` rows where it failed).
  /// - Throws: ``FixtureError`` for a pipeline or marble that cannot be read.
  package static func run(_ scenario: Scenario) throws(FixtureError) -> ScenarioResult {
    let report = try execute(scenario)
    var picture = report.picture
    picture.title = scenario.title
    return ScenarioResult(
      title: scenario.title, passed: report.passed,
      text: report.passed ? report.actual : report.text, picture: picture,
      mismatches: report.mismatches, recording: report.recording)
  }

  /// The scenario's resulting timelines — what each subscriber received and what subscriptions each
  /// source saw — without asserting anything.
  ///
  /// - Parameter scenario: The scenario.
  /// - Returns: The table with every `gets` and `subs` row drawn from what happened.
  /// - Throws: ``FixtureError`` for a pipeline or marble that cannot be read.
  package static func show(_ scenario: Scenario) throws(FixtureError) -> String {
    try execute(scenario).actual
  }

  /// Every mistake in a scenario's pipeline and marbles: the pipeline's, and one per marble that
  /// cannot be read.
  ///
  /// - Parameter scenario: A scenario whose headers and rows were read.
  /// - Returns: The mistakes, in file order.
  static func mistakes(in scenario: Scenario) -> [FixtureError] {
    var errors: [FixtureError] = []
    do throws(FixtureError) {
      _ = try pipeline(of: scenario)
    } catch {
      errors.append(error)
    }
    let values = values(of: scenario)
    // `failure: never` checks the marbles as a never-failing signal's, so a `#` says so.
    let marbleErrors =
      scenario.cannotFail
      ? scenario.table.marbleErrors(values: values, error: Never?.none, tick: scenario.frame)
      : scenario.table.marbleErrors(values: values, error: TestError(), tick: scenario.frame)
    errors += marbleErrors.map { FixtureError(path: scenario.path, syntax: $0) }
    return errors
  }

  /// The scenario's pipeline, read against its sources.
  private static func pipeline(of scenario: Scenario) throws(FixtureError) -> Pipeline {
    let sourceLabels = Set(
      scenario.table.rows.filter(\.kind.isSource).map(\.label))
    do {
      return try Pipeline.parse(scenario.pipeline, sourceLabels: sourceLabels)
    } catch {
      throw FixtureError(
        path: scenario.path,
        syntax: MarbleSyntaxError(
          message: error.message, line: scenario.pipelineLine,
          column: scenario.pipelineColumn + error.offset, sourceLine: scenario.pipelineSourceLine))
    }
  }

  /// What the scenario's value characters stand for: themselves, unless `values:` says otherwise.
  private static func values(of scenario: Scenario) -> [Character: String] {
    var values = Marble.characterValues
    for (key, value) in scenario.values { values[key] = value }
    return values
  }

  private static func execute(_ scenario: Scenario) throws(FixtureError) -> TableReport {
    let pipeline = try pipeline(of: scenario)
    let values = values(of: scenario)
    do {
      // The pipeline carries text that may fail with `TestError`; `failure: never` only makes a
      // `#` in the table a mistake, so that what the table says matches sources that cannot fail.
      return try scenario.table.run(
        values: values, orError: scenario.cannotFail ? nil : TestError(), tick: scenario.frame
      ) { sources in
        apply(pipeline, to: sources, values: values)
      }
    } catch {
      throw FixtureError(path: scenario.path, syntax: error)
    }
  }

  /// What a pipeline holds between steps: a signal, or a multicast connection not yet turned into
  /// one (`connect@T` or `autoconnect` does that; left alone, its signal never connects).
  private enum Stage {
    case signal(Signal<String, TestError>)
    case connection(MulticastConnection<String, TestError>, connected: Bool)

    var signal: Signal<String, TestError> {
      switch self {
      case .signal(let signal): signal
      case .connection(let connection, _): connection.signal
      }
    }
  }

  private static func apply(
    _ pipeline: Pipeline, to sources: TableSources<String, TestError>,
    values: [Character: String]
  ) -> Signal<String, TestError> {
    let scheduler = sources.scheduler
    func value(_ character: Character) -> String { values[character] ?? String(character) }
    var stage = Stage.signal(sources[pipeline.source].asSignal())
    for step in pipeline.steps {
      switch step {
      case .publish:
        stage = .connection(stage.signal.publish(), connected: false)
      case .multicast(let kind):
        let subject: Subject<String, TestError> =
          switch kind {
          case .plain: Subject()
          case .replay(let capacity): ReplaySubject(capacity: capacity)
          case .behavior(let initial): BehaviorSubject(value: value(initial))
          }
        stage = .connection(stage.signal.multicast(subject), connected: false)
      case .connect(let frame):
        guard case .connection(let connection, _) = stage else {
          // connect@T after a plain signal multicasts it through a subject first.
          let connection = stage.signal.publish()
          scheduler.schedule(at: frame) { connection.connect() }
          stage = .connection(connection, connected: true)
          continue
        }
        scheduler.schedule(at: frame) { connection.connect() }
        stage = .connection(connection, connected: true)
      case .disposeConnection(let frame):
        if case .connection(let connection, true) = stage {
          scheduler.schedule(at: frame) { connection.connect().dispose() }
        }
      case .autoconnect:
        let connection: MulticastConnection<String, TestError>
        if case .connection(let existing, _) = stage {
          connection = existing
        } else {
          connection = stage.signal.publish()
        }
        stage = .signal(connection.autoconnect())
      case .replay: stage = .signal(stage.signal.replay())
      case .replayLast: stage = .signal(stage.signal.replayLast())
      case .replayLazily: stage = .signal(stage.signal.replayLazily())
      case .mapUppercased: stage = .signal(stage.signal.map { $0.uppercased() })
      case .mapLowercased: stage = .signal(stage.signal.map { $0.lowercased() })
      case .mapCharacters(let table):
        let mapping = Dictionary(
          uniqueKeysWithValues: table.map { (value($0.key), value($0.value)) })
        stage = .signal(stage.signal.map { mapping[$0] ?? $0 })
      case .filter(let kept):
        let keptValues = Set(kept.map(value))
        stage = .signal(stage.signal.filter { keptValues.contains($0) })
      case .take(let count): stage = .signal(stage.signal.take(count))
      case .startWith(let first): stage = .signal(stage.signal.startWith(value(first)))
      case .ignoreValues: stage = .signal(stage.signal.ignoreValues())
      case .merge(let label): stage = .signal(stage.signal.merge(sources[label]))
      case .concat(let label): stage = .signal(stage.signal.concat(sources[label]))
      case .then(let label):
        let next = sources[label].asSignal()
        stage = .signal(stage.signal.then { next })
      case .catchTo(let label):
        stage = .signal(stage.signal.catch(to: sources[label].asSignal()))
      case .delay(let frames):
        stage = .signal(stage.signal.delay(scheduler.tick * frames, on: scheduler))
      case .debounce(let frames):
        stage = .signal(stage.signal.debounce(scheduler.tick * frames, on: scheduler))
      case .throttle(let frames, let latest):
        stage = .signal(
          stage.signal.throttle(scheduler.tick * frames, latest: latest, on: scheduler))
      case .timeout(let frames):
        stage = .signal(
          stage.signal.timeout(scheduler.tick * frames, on: scheduler, error: TestError()))
      case .skip(let count): stage = .signal(stage.signal.skip(count))
      case .takeLast(let count): stage = .signal(stage.signal.takeLast(count))
      case .distinctUntilChanged: stage = .signal(stage.signal.distinctUntilChanged())
      case .scan: stage = .signal(stage.signal.scan("") { $0 + $1 })
      case .takeUntil(let label): stage = .signal(stage.signal.takeUntil(sources[label]))
      case .sample(let label): stage = .signal(stage.signal.sample(sources[label]))
      case .retry(let count): stage = .signal(stage.signal.retry(count))
      case .deliverOn: stage = .signal(stage.signal.deliver(on: scheduler))
      case .subscribeOn: stage = .signal(stage.signal.subscribe(on: scheduler))
      case .flattenMap(let strategy, let label):
        let inner = sources[label].asSignal()
        stage = .signal(stage.signal.flattenMap(strategy) { _ in inner })
      case .combineLatest(let label):
        stage = .signal(stage.signal.combineLatest(sources[label]).map { $0 + $1 })
      case .zip(let label):
        stage = .signal(stage.signal.zip(sources[label]).map { $0 + $1 })
      case .buffer(let frames, let count):
        stage = .signal(
          stage.signal.buffer(timeSpan: scheduler.tick * frames, count: count, on: scheduler)
            .map { $0.joined() })
      case .materialize:
        let events = stage.signal.materialize().map { event in
          switch event {
          case .next(let value): "next(\(value))"
          case .error: "error"
          case .completed: "completed"
          }
        }
        stage = .signal(
          Signal { downstream in
            events.subscribe(
              next: { downstream.sendNext($0) }, completed: { downstream.sendCompleted() })
          })
      case .groupByLowercased(let strategy):
        stage = .signal(stage.signal.groupBy { $0.lowercased() }.flatten(strategy))
      case .channel(let following):
        let channel = Channel<String, TestError>()
        let leading = stage.signal
        let follower = following.map { sources[$0].asSignal() }
        // The terminals are fed when the first subscriber arrives, like a binding made at frame 0.
        scheduler.schedule(at: 0) {
          leading.subscribe(channel.leadingTerminal)
          follower?.subscribe(channel.followingTerminal)
        }
        stage = .signal(channel.followingTerminal.asSignal())
      }
    }
    return stage.signal
  }
}

extension Fixtures {
  /// A fixture file's text with the wrong `gets` and `subs` rows of its failing scenarios
  /// rewritten (`marbles --record`): only the marble part of a row changes; extra subscriptions
  /// add rows under a source's last `subs` row, missing ones remove rows.
  ///
  /// - Parameters:
  ///   - text: The file's text.
  ///   - recorded: Each failing scenario and its run.
  /// - Returns: The new text.
  /// - Throws: Why the rows cannot be written.
  package static func record(
    _ text: String, _ recorded: [(scenario: Scenario, result: ScenarioResult)]
  ) throws(LiteralRewrite.Refusal) -> String {
    let bytes = Array(text.utf8)
    var edits: [LiteralRewrite.Edit] = []
    for (scenario, result) in recorded {
      let records = try result.recording.get()
      // The rows know their lines in the file: the table starts at the file's first byte.
      edits += try LiteralRewrite.table(
        scenario.table, text: bytes, firstLine: 0, indent: 0, records: records)
    }
    return String(decoding: LiteralRewrite.apply(edits, to: bytes), as: UTF8.self)
  }
}
