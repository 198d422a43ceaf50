import Synchronization

/// Two `async let` children that sleep for `sleep` and then append "first" and "second" to a log:
/// they wake at the same tick, so the log's order is whichever child ran first — the race the
/// exploration tests look for, in Swift Testing and XCTest alike.
///
/// - Parameter sleep: How long each child sleeps first.
/// - Returns: The log, in the order the children appended.
public func twoSleepingChildrenAppend(after sleep: Duration = .milliseconds(10)) async
  -> [String]
{
  let log = RaceLog()
  async let first: Void = {
    try? await Task.sleep(for: sleep)
    log.append("first")
  }()
  async let second: Void = {
    try? await Task.sleep(for: sleep)
    log.append("second")
  }()
  _ = await (first, second)
  return log.all
}

/// A log several tasks append to.
private final class RaceLog: Sendable {
  private let entries = Mutex<[String]>([])

  func append(_ entry: String) { entries.withLock { $0.append(entry) } }

  var all: [String] { entries.withLock { $0 } }
}
