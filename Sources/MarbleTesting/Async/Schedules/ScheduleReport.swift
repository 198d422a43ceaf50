/// The lanes of a schedule, as text: one row per task, one column per job in the order they ran,
/// with the tick above and the departures from FIFO marked `*`.
@_spi(Exploration) public enum ScheduleReport {
  /// The lanes of `steps`; tasks in creation order, named by `names` or "task 1", "task 2"…,
  /// jobs that are no task's (an actor's) on a row of their own. At most `limit` columns: the
  /// ones up to the last departure, and a few after it.
  @_spi(Exploration) public static func lanes(
    _ steps: [ScheduleRun.Step], names: [UInt64: String], limit: Int = 48
  ) -> String {
    guard !steps.isEmpty else { return "  (no job ran)" }
    let lastDeparture = steps.lastIndex { $0.isDeparture } ?? 0
    let end = min(steps.count, max(lastDeparture + 4, min(steps.count, limit)))
    let start = max(0, end - limit)
    let shown = Array(steps[start..<end])
    let tasks = Set(shown.compactMap(\.task)).sorted()
    var labels: [String] = []
    var number = 0
    for task in tasks {
      number += 1
      labels.append(names[task] ?? "task \(number)")
    }
    let hasActorJobs = shown.contains { $0.task == nil }
    if hasActorJobs { labels.append("actor jobs") }
    let width = max(4, labels.map(\.count).max() ?? 0)
    func pad(_ text: String) -> String { text + String(repeating: " ", count: width - text.count) }
    func cell(_ text: String) -> String {
      String(repeating: " ", count: max(1, 4 - text.count)) + text
    }
    var rows = [
      "  " + pad("job") + shown.indices.map { cell("\(start + $0 + 1)") }.joined(),
      "  " + pad("tick") + shown.map { cell("\($0.tick)") }.joined(),
    ]
    let lanes: [UInt64?] = tasks.map { $0 } + (hasActorJobs ? [nil] : [])
    for (lane, label) in zip(lanes, labels) {
      rows.append(
        "  " + pad(label)
          + shown.map { step in
            step.task == lane ? cell(step.isDeparture ? "●*" : "●") : cell("")
          }.joined())
    }
    if start > 0 {
      rows.insert("  (from job \(start + 1); the jobs before it ran in FIFO order)", at: 0)
    }
    if end < steps.count { rows.append("  (\(steps.count - end) more jobs, in FIFO order)") }
    return rows.map { row in String(row.reversed().drop { $0 == " " }.reversed()) }
      .joined(separator: "\n")
  }

  /// The same lanes as a picture, drawn by the Pictures room: one lane per task, each job a mark
  /// at its column (frame = the job's place in the order they ran), `*` for a departure.
  @_spi(Exploration) public static func picture(
    _ steps: [ScheduleRun.Step], names: [UInt64: String]
  ) -> MarblePicture {
    let tasks = Set(steps.compactMap(\.task)).sorted()
    var lanes: [MarbleLane] = []
    for (number, task) in tasks.enumerated() {
      lanes.append(
        MarbleLane(
          title: names[task] ?? "task \(number + 1)", role: .actual,
          items: steps.indices.filter { steps[$0].task == task }.map { index in
            MarbleLane.Item(frame: index, mark: .value(steps[index].isDeparture ? "*" : "●"))
          }))
    }
    if steps.contains(where: { $0.task == nil }) {
      lanes.append(
        MarbleLane(
          title: "actor jobs", role: .actual,
          items: steps.indices.filter { steps[$0].task == nil }.map { index in
            MarbleLane.Item(frame: index, mark: .value(steps[index].isDeparture ? "*" : "●"))
          }))
    }
    return MarblePicture(
      lanes: lanes, title: "the order that failed",
      notes: [
        "one column per job, in the order they ran; * marks a job that went first against FIFO"
      ])
  }
}
