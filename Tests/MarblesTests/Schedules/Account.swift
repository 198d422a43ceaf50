// snippet: Account.swift
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
// snippet-end
