import MarbleTesting
import Marbles
import Signals
import Testing

// The code of the Marbles catalog's articles. Each region between `// snippet: NAME` and
// `// snippet-end` is quoted verbatim by an article (ArticleListingsTests checks it), and runs here.

@Suite struct GettingStartedSnippetsTests {
  @Test func readingAFailure() throws {
    let scheduler = TestScheduler()
    let recorder = scheduler.record(try scheduler.cold("--a--b-|"))
    scheduler.run()
    withKnownIssue {
      assertMarbles(recorder, "--a-b--|")
    } matching: { issue in
      issue.comments.map(\.rawValue) == [
        // snippet: getting-started-failure
        """
        marbles differ at frame 4
          expected  --a-b--|
          actual    --a--b-|
                        ^ expected next("b") at frame 4, got nothing; next("b") came at frame 5
        """
        // snippet-end
      ]
    }
  }
}

@Suite struct MarbleLanguageSnippetsTests {
  @Test func valuesAndErrors() throws {
    // snippet: language-values
    struct User: Equatable, Sendable { var id: Int }
    let scheduler = TestScheduler()
    let users: TestSignal<User, Never> = try scheduler.cold(
      "-a-b|", values: ["a": User(id: 1), "b": User(id: 2)])
    let ids = scheduler.record(users.map(\.id))
    scheduler.run()
    assertMarbles(ids, "-x-y|", values: ["x": 1, "y": 2])
    // snippet-end
  }

  @Test func aCustomError() throws {
    // snippet: language-error
    enum LoadError: Error, Equatable { case offline }
    let scheduler = TestScheduler()
    let load = try scheduler.cold("--#", values: [String: Int](), error: LoadError.offline)
    let recorder = scheduler.record(load)
    scheduler.run()
    assertMarbles(recorder, "--#", values: [String: Int](), error: LoadError.offline)
    // snippet-end
  }

  @Test func timeProgressions() throws {
    // snippet: language-time-progression
    let scheduler = TestScheduler(tick: .milliseconds(1))
    let source = try scheduler.cold("a 10ms b|")  // a at 0, b at 11, completed at 12
    let recorder = scheduler.record(source)
    scheduler.run()
    #expect(recorder.events == [.next(0, "a"), .next(11, "b"), .completed(12)])
    #expect(try scheduler.time("---|") == 3)
    // snippet-end
  }

  @Test func subscriptionMarbles() throws {
    // snippet: language-subscriptions
    let scheduler = TestScheduler()
    let source = try scheduler.hot("--a--b--c--|")
    let recorder = scheduler.record(source.take(2), subscribeAt: 1)
    scheduler.run()
    assertMarbles(recorder, "--a--(b|)")  // take(2) ends after b
    assertSubscriptions(source, "-^---!")  // subscribed at 1, disposed at 5
    // snippet-end
  }

  @Test func syntaxErrorsHaveAPosition() throws {
    let scheduler = TestScheduler()
    let error = try #require(throws: MarbleSyntaxError.self) {
      _ = try scheduler.cold("--a--|--b")
    }
    let expected =
      // snippet: language-syntax-error
      """
      line 1, column 9: 'b' comes after the '|' at column 6; nothing may follow a terminal event
        --a--|--b
                ^
      """
    // snippet-end
    #expect(error.description == expected)
  }

  @Test func oneFrameGroups() throws {
    // snippet: language-one-frame-group
    let scheduler = TestScheduler()
    let merged = scheduler.record(try scheduler.cold("-a|").merge(try scheduler.cold("-b|")))
    scheduler.run()
    assertMarbles(merged, "-[ab]|")  // a and b at frame 1, the end at frame 2
    // "-(ab)|" would put the end at frame 5: a (…) group is as long as it is written
    // snippet-end
  }
}

@Suite struct HotAndColdSnippetsTests {
  // snippet: hot-and-cold-every-subscription-is-a-request
  @Test func everySubscriptionIsARequest() {
    assertTable(
      """
      fetch  cold  ---r|
      title  sub   ^
      title  gets  ---r|
      desc   sub   -^
      desc   gets  ----r|
      merge  sub   --^
      merge  gets  -----r|
      fetch  subs  ^---!
      fetch  subs  -^---!
      fetch  subs  --^---!
      """
    ) { $0["fetch"] }
  }
  // snippet-end

  // snippet: hot-and-cold-publish
  @Test func publishSharesOneRequestButALateSubscriberMissesTheAnswer() {
    assertTable(
      """
      fetch  cold  ---r|
      title  sub   ^
      title  gets  ---r|
      desc   sub   -^
      desc   gets  ---r|
      late   sub   ------^
      late   gets  ------|
      fetch  subs  ^---!
      """
    ) { $0["fetch"].publish().autoconnect() }
  }
  // snippet-end

  // snippet: hot-and-cold-replay
  @Test func replayRunsTheRequestAtOnceEvenWithNobodySubscribed() {
    assertTable(
      """
      fetch  cold  ---r|
      late   sub   ------^
      late   gets  ------(r|)
      fetch  subs  ^---!
      """
    ) { $0["fetch"].replay() }
  }
  // snippet-end
}
