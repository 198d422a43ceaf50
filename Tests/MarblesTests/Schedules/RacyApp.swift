// snippet: RacyApp.swift
import MarbleTesting
import Testing

/// Two withdrawals from one account, each checking the balance before a hop and taking the
/// money after it: a double spend, when the second checks before the first has taken.
actor Account {
  private(set) var balance = 100
  func withdraw(_ amount: Int) async {
    guard balance >= amount else { return }
    await Self.audit()
    balance -= amount
  }
  nonisolated static func audit() async { await Task.yield() }
}

/// The code under test, driven by a scheduler: two withdrawals of 80 from one account of 100.
func twoWithdrawals() async {
  let scheduler = TestScheduler()
  let account = Account()
  scheduler.task(name: "first") { await account.withdraw(80) }
  scheduler.task(name: "second") {
    await Task.yield()  // validates the request first
    await Task.yield()
    await account.withdraw(80)
  }
  scheduler.run()
  #expect(await account.balance >= 0)
}

/// A token client whose refresh sits behind an `await`: it looks for a token, then — after a
/// hop to the keychain — starts a refresh. A caller that gets in during the hop sees no token and
/// no refresh either, and starts a second one (a check-then-act race).
actor TokenClient {
  private(set) var refreshes = 0
  private var token: String?
  private var refreshing: Task<String, Never>?
  private let keychain = Keychain()

  func validToken() async -> String {
    if let token { return token }
    if let refreshing { return await refreshing.value }
    if let stored = await keychain.storedToken() { return stored }
    let refresh = Task { await self.refresh() }
    refreshing = refresh
    let fresh = await refresh.value
    token = fresh
    return fresh
  }

  private func refresh() async -> String {
    refreshes += 1
    try? await Task.sleep(for: .milliseconds(300))  // the request
    return "token \(refreshes)"
  }
}

actor Keychain {
  func storedToken() -> String? { nil }
}

actor Session {
  func restore() {}
}

/// The feed asks for a token at once; the profile restores the session first.
func loadFeed(_ client: TokenClient) async { _ = await client.validToken() }

func loadProfile(_ client: TokenClient, _ session: Session) async {
  await session.restore()
  _ = await client.validToken()
}

/// The app's launch: the feed and the profile, side by side.
func appLaunch(_ client: TokenClient) async {
  let session = Session()
  async let feed: Void = loadFeed(client)
  async let profile: Void = loadProfile(client, session)
  _ = await (feed, profile)
}
// snippet-end
