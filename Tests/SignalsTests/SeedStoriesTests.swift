import Signals
import Testing

/// Seed 004: six bindings on one cold `fetchData` signal fire six requests; `replayLazily()` makes
/// it one.
@Suite("Seed stories", .tags(.seed004))
struct SeedStoriesTests {
  typealias Data = [String: String]

  /// What the screen shows: three bound texts and the alerts.
  struct Screen {
    let titleLabel = Recorder<String, Never>()
    let descTextView = Recorder<String, Never>()
    let renderedTextView = Recorder<String, Never>()
    let alerts = Shared<[TestFailure]>([])
  }

  /// A cold request that counts its runs and answers `data` at once.
  static func fetchData(_ data: Data, runs: Counter) -> Signal<Data, TestFailure> {
    Signal { subscriber in
      runs.increment()
      subscriber.sendNext(data)
      subscriber.sendCompleted()
      return nil
    }
  }

  /// The seed's view-model code, line for line: three derived signals, three bindings, one alert.
  static func bind(_ fetchData: Signal<Data, TestFailure>) -> Screen {
    let title = fetchData.flattenMap { data in
      data["title"].map(Signal.just) ?? .error(TestFailure(message: "no title"))
    }
    let desc = fetchData.flattenMap { data in
      data["desc"].map(Signal.just) ?? .error(TestFailure(message: "no desc"))
    }
    let renderedDesc = desc.flattenMap { Signal.just("<b>\($0)</b>") }

    let screen = Screen()
    title.catch(to: Signal<String, Never>.just("Error")).startWith("Loading...")
      .subscribe(screen.titleLabel)
    desc.catch(to: Signal<String, Never>.just("Error")).startWith("Loading...")
      .subscribe(screen.descTextView)
    renderedDesc.catch(to: Signal<String, Never>.just("Error")).startWith("Loading...")
      .subscribe(screen.renderedTextView)
    Signal.merge([title, desc, renderedDesc]).subscribe(error: { screen.alerts.append($0) })
    return screen
  }

  static let page: Data = ["title": "T", "desc": "D"]

  @Test("Six bindings on a cold fetchData fire six requests")
  func sixRequests() {
    let runs = Counter()
    let screen = Self.bind(Self.fetchData(Self.page, runs: runs))
    #expect(runs.value == 6)
    #expect(screen.titleLabel.values == ["Loading...", "T"])
    #expect(screen.descTextView.values == ["Loading...", "D"])
    #expect(screen.renderedTextView.values == ["Loading...", "<b>D</b>"])
    #expect(screen.alerts.value.isEmpty)
  }

  @Test("fetchData.replayLazily() makes it one request, with the same texts")
  func oneRequestWithReplayLazily() {
    let runs = Counter()
    let fetchData = Self.fetchData(Self.page, runs: runs).replayLazily()
    #expect(runs.value == 0)
    let screen = Self.bind(fetchData)
    #expect(runs.value == 1)
    #expect(screen.titleLabel.values == ["Loading...", "T"])
    #expect(screen.descTextView.values == ["Loading...", "D"])
    #expect(screen.renderedTextView.values == ["Loading...", "<b>D</b>"])
    #expect(screen.alerts.value.isEmpty)
  }

  @Test("A page without a title shows Error in the title label and raises one alert")
  func missingTitle() {
    let runs = Counter()
    let screen = Self.bind(Self.fetchData(["desc": "D"], runs: runs).replayLazily())
    #expect(runs.value == 1)
    #expect(screen.titleLabel.values == ["Loading...", "Error"])
    #expect(screen.descTextView.values == ["Loading...", "D"])
    #expect(screen.renderedTextView.values == ["Loading...", "<b>D</b>"])
    #expect(screen.alerts.value == [TestFailure(message: "no title")])
  }

  @Test("Seed 003: a subject fed by a cold signal shares one run; a late subscriber misses values")
  func subjectTurnsColdHot() {
    let cold = Probe<String, Never>()
    let subject = Subject<String, Never>()
    let early = Recorder<String, Never>()
    let late = Recorder<String, Never>()
    subject.subscribe(early)
    cold.signal.subscribe(subject)
    cold.sendNext("A")
    subject.subscribe(late)
    cold.sendNext("B")
    cold.sendCompleted()
    #expect(cold.subscriptionCount == 1)
    #expect(early.events == [.next("A"), .next("B"), .completed])
    #expect(late.events == [.next("B"), .completed])
  }
}
