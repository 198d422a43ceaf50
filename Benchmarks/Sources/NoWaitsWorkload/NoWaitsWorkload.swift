/// Phase q's workload (issue 48.4), shared by the phase (in process) and `SynctestWorkloads Q`
/// (in a world, plain, and on the runtime's floor, release and debug, each a process of its own):
/// work that does not wait.
public enum NoWaitsWorkload {
  /// A queue an app keeps behind an actor.
  actor Queue {
    private var items: [Int] = []
    func push(_ item: Int) -> Int {
      items.append(item)
      return items.count
    }
    var count: Int { items.count }
  }

  /// 1,000 tasks each pushing once, awaited; the queue's count.
  public static func run() async -> Int {
    let queue = Queue()
    let tasks = (0..<1_000).map { index in Task { await queue.push(index) } }
    for task in tasks { _ = await task.value }
    return await queue.count
  }
}
