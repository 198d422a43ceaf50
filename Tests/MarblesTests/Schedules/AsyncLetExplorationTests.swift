import MarbleTesting
import Marbles
import TestSupport
import Testing

/// `exploreSchedules` with `scheduler.task { await appLaunch() }`, where the app's launch uses
/// `async let` (issue 47.5): the exploration finds the race and the process goes on — on
/// 2026-11-28's `main` it died of signal 11 in `TestScheduler.deinit` (`Jobs.release`).
@Suite(.takesIssues) struct AsyncLetExplorationTests {
  /// A token client whose refresh sits behind an `await`: two callers that both see no token
  /// both refresh (a check-then-act race).
  actor TokenClient {
    private(set) var refreshes = 0
    private var token: String?

    func validToken() async -> String {
      if let token { return token }
      try? await Task.sleep(for: .milliseconds(50))  // the refresh request
      refreshes += 1
      let fresh = "token \(refreshes)"
      token = fresh
      return fresh
    }
  }

  /// The app's launch: the feed and the profile ask for a token side by side.
  static func appLaunch(_ client: TokenClient) async {
    async let feed = client.validToken()
    async let profile = client.validToken()
    _ = await (feed, profile)
  }

  static func launchRefreshesOnce() async {
    let scheduler = TestScheduler()
    let client = TokenClient()
    scheduler.task { await appLaunch(client) }
    scheduler.run()
    #expect(await client.refreshes == 1)
  }

  @Test(.virtualTime) func inAWorld() async {
    await theRaceIsFoundAndTheProcessGoesOn()
  }

  @MainActor @Test func onTheMainActor() async {
    await theRaceIsFoundAndTheProcessGoesOn()
  }

  @Test func theRaceIsFoundAndTheProcessGoesOn() async {
    var exploration: ScheduleExploration?
    let issues = await takingIssues {
      exploration = await exploreSchedules(100, seed: 7) { await Self.launchRefreshesOnce() }
    }
    #expect(exploration?.failure != nil, "\(String(describing: exploration))")
    #expect(!issues.isEmpty)
    // Its replay, too.
    if let token = exploration?.failure?.replay {
      let replayed = await takingIssues {
        _ = await exploreSchedules(replay: token) { await Self.launchRefreshesOnce() }
      }
      #expect(!replayed.isEmpty)
    }
  }
}
