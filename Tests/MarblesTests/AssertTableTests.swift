import MarbleTesting
import Marbles
import Signals
import Testing

/// The seed stories and the sharing operators, each as one expectation table.
@Suite struct AssertTableTests {
  /// Seeds 000/002/004, tick 100 ms: subscribers 1–2 at 0.1 s, package 1 at 1 s, subscribers 3–4
  /// at 1.1 s, package 2 at 2 s. A subject: the late subscriber misses package 1.
  @Test func seedSubjectLateSubscriberMissesPackageOne() {
    assertTable(
      """
      packages  hot   ----------a---------b
      sub1      sub   -^-------------------
      sub1      gets  ----------a---------b
      sub3      sub   -----------^---------
      sub3      gets  --------------------b
      """, tick: .milliseconds(100)
    ) { $0["packages"] }
  }

  /// The same with a replay subject (`replay()` subscribes at frame 0): package 1 is replayed to
  /// the late subscriber at 1.1 s.
  @Test func seedReplaySubjectReplaysPackageOneAtOnePointOneSeconds() {
    assertTable(
      """
      packages  hot   ----------a---------b
      sub1      sub   -^-------------------
      sub1      gets  ----------a---------b
      sub3      sub   -----------^---------
      sub3      gets  -----------a--------b
      packages  subs  ^--------------------
      """, tick: .milliseconds(100)
    ) { $0["packages"].replay() }
  }

  /// Seed 004's publish: 1, 2, 3 at 1, 2, 3 s, completed at 4 s, connected at once; subscribers at
  /// 1.1 s and 2.1 s miss what came before them.
  @Test func seed004PublishLateSubscribersMissEarlierValues() {
    assertTable(
      """
      src   cold  ----------1---------2---------3---------|
      sub1  sub   -----------^-----------------------------
      sub1  gets  --------------------2---------3---------|
      sub2  sub   ---------------------^-------------------
      sub2  gets  ------------------------------3---------|
      src   subs  ^---------------------------------------!
      """, tick: .milliseconds(100)
    ) { sources in
      let connection = sources["src"].publish()
      connection.connect()
      return connection.signal
    }
  }

  /// Seed 002, tick 500 ms: a cold signal (A at 1.5 s, B at 3 s, done at 5 s) multicast through a
  /// subject connected at 2 s; subscribers at 0 and 4 s.
  @Test func seed002MulticastConnectedAtTwoSeconds() {
    assertTable(
      """
      cold  cold  ---A--B---|
      sub1  sub   ^-------------
      sub1  gets  -------A--B---|
      sub2  sub   --------^-----
      sub2  gets  ----------B---|
      cold  subs  ----^---------!
      """, tick: .milliseconds(500)
    ) { sources in
      let connection = sources["cold"].multicast(Subject())
      sources.scheduler.schedule(at: 4) { connection.connect() }
      return connection.signal
    }
  }

  /// Seed 002 with `autoconnect()`: the first subscriber (2 s) connects, the second (4 s) does not
  /// resubscribe.
  @Test func seed002AutoconnectFirstSubscriberConnects() {
    assertTable(
      """
      cold  cold  ---A--B---|
      sub1  sub   ----^---------
      sub1  gets  -------A--B---|
      sub2  sub   --------^-----
      sub2  gets  ----------B---|
      cold  subs  ----^---------!
      """, tick: .milliseconds(500)
    ) { $0["cold"].multicast(Subject()).autoconnect() }
  }

  @Test func replaySubscribesAtCallTimeAndReplaysEverything() {
    assertTable(
      """
      src   cold  -a-b-|
      sub1  sub   ^-----
      sub1  gets  -a-b-|
      sub2  sub   --^---
      sub2  gets  --ab-|
      src   subs  ^----!
      """
    ) { $0["src"].replay() }
  }

  @Test func replayLastReplaysOnlyTheLatestValue() {
    assertTable(
      """
      src   cold  -a-b-c-|
      sub2  sub   ----^---
      sub2  gets  ----bc-|
      src   subs  ^------!
      """
    ) { $0["src"].replayLast() }
  }

  /// Seed 004's expensive request without sharing: every subscriber runs it again.
  @Test func withoutSharingEverySubscriberRunsTheRequest() {
    assertTable(
      """
      fetch  cold  ---r|
      sub1   sub   ^---------
      sub1   gets  ---r|
      sub2   sub   -----^----
      sub2   gets  --------r|
      fetch  subs  ^---!
      fetch  subs  -----^---!
      """
    ) { $0["fetch"] }
  }

  // With `replayLazily()`: one request — the README's table, in ReadmeExamplesTests.swift.

  /// A behaviour subject sends its current value on subscribe; after completion, the last value
  /// and the completion.
  @Test func behaviorSubjectSendsTheCurrentValue() {
    assertTable(
      """
      src   hot   --a--b--|
      sub1  gets  0-a--b--|
      sub2  sub   ---^------
      sub2  gets  ---a-b--|
      sub3  sub   ---------^
      sub3  gets  ---------(b|)
      """
    ) { sources in
      let connection = sources["src"].multicast(BehaviorSubject(value: "0"))
      connection.connect()
      return connection.signal
    }
  }

  /// `autoconnect()` disposes the source when the last subscriber leaves, and never reconnects.
  @Test func autoconnectNeverReconnects() {
    assertTable(
      """
      src   cold  -a-b-c-|
      sub1  sub   ^--!------
      sub1  gets  -a--------
      sub2  sub   -----^----
      sub2  gets  ----------
      src   subs  ^--!
      """
    ) { $0["src"].multicast(Subject()).autoconnect() }
  }

  /// A subject remembers its termination: a late subscriber gets it at once.
  @Test func aLateSubscriberToAPublishedSignalGetsTheCompletionAtOnce() {
    assertTable(
      """
      src   hot   -a-|
      sub1  gets  -a-|
      sub2  sub   -----^
      sub2  gets  -----|
      """
    ) { sources in
      let connection = sources["src"].publish()
      connection.connect()
      return connection.signal
    }
  }

  // MARK: Failures

  @Test func aWrongRowIsReprintedWithWhatHappenedACaretAndASentence() {
    let line = #line + 2
    withKnownIssue {
      assertTable(
        """
        fetch  cold  ---r|
        sub1   sub   ^---------
        sub1   gets  ---r|
        sub2   sub   -----^----
        sub2   gets  -----(r|)
        fetch  subs  ^---!
        """
      ) { $0["fetch"] }
    } matching: { issue in
      issue.sourceLocation?.line == line
        && issue.comments.map(\.rawValue) == [
          // snippet: tables-failure
          """
          table failed
          fetch  cold  ---r|
          sub1   sub   ^---------
          sub1   gets  ---r|
          sub2   sub   -----^----
          sub2   gets  -----(r|)
                  was  --------r|
                            ^
          fetch  subs  ^---!
                  was  ^---!
                  was  -----^---!
                            ^

          sub2 missed `r` at frame 5 (it came at frame 8)
          fetch: expected 1 subscription, got 2; unexpected (5, 9)
          """
          // snippet-end
        ]
    }
  }

  @Test func aTableThatCannotBeReadPointsAtTheRowAndColumn() {
    withKnownIssue {
      assertTable(
        """
        src   cold  -a-b-|
        sub1  gets  -a-(b|
        """
      ) { $0["src"] }
    } matching: { issue in
      issue.comments.map(\.rawValue) == [
        """
        table cannot be read: line 2, column 16: '(' is never closed
          sub1  gets  -a-(b|
                         ^
        """
      ]
    }
  }

  @Test func askingForAnUndeclaredSourceFailsNamingTheSources() {
    withKnownIssue {
      assertTable(
        """
        src   cold  -a|
        sub1  gets  -a|
        """
      ) { $0["source"] }
    } matching: { issue in
      issue.comments.first?.rawValue.contains(
        "the pipeline asked for 'source', but the table declares only src") == true
    }
  }
}
