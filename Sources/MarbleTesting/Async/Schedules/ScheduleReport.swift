/// The lanes of a schedule, drawn by the Pictures room: one lane per task, one column (frame) per
/// job in the order they ran, the departures from FIFO marked `*` — as text in the report, and as
/// an SVG picture attached to the test.
package enum ScheduleReport {
  /// The lanes of `steps` as text, with the job numbers and the ticks above; tasks in creation
  /// order, named by `names` or "task 1", "task 2"…, jobs that are no task's (an actor's) on a row
  /// of their own. At most `limit` columns: the ones up to the last departure, and a few after it.
  package static func lanes(
    _ steps: [ScheduleRun.Step], names: [UInt64: String], limit: Int = 48
  ) -> String {
    guard !steps.isEmpty else { return "  (no job ran)" }
    let lastDeparture = steps.lastIndex { $0.isDeparture } ?? 0
    let end = min(steps.count, max(lastDeparture + 4, min(steps.count, limit)))
    let start = max(0, end - limit)
    let shown = Array(steps[start..<end])
    let header = [
      MarbleLane(
        title: "job", role: .source,
        items: shown.indices.map { .init(frame: $0, mark: .value("\(start + $0 + 1)")) }),
      MarbleLane(
        title: "tick", role: .source,
        items: shown.indices.map { .init(frame: $0, mark: .value("\(shown[$0].tick)")) }),
    ]
    var rows = MarblePicture(lanes: header + taskLanes(shown, names: names))
      .textRows(frames: shown.indices)
    if start > 0 {
      rows.insert("  (from job \(start + 1); the jobs before it ran in FIFO order)", at: 0)
    }
    if end < steps.count { rows.append("  (\(steps.count - end) more jobs, in FIFO order)") }
    return rows.joined(separator: "\n")
  }

  /// The same lanes as a picture: one lane per task, each job a mark at its column (frame = the
  /// job's place in the order they ran), `*` for a departure.
  package static func picture(
    _ steps: [ScheduleRun.Step], names: [UInt64: String]
  ) -> MarblePicture {
    MarblePicture(
      lanes: taskLanes(steps, names: names), title: "the order that failed",
      notes: [
        "one column per job, in the order they ran; * marks a job that went first against FIFO"
      ])
  }

  /// A lane per task of `steps` in creation order — named by `names`, else "task 1", "task 2"… —
  /// then one for the jobs that are no task's; a job at its index, `●`, or `●*` for a departure.
  private static func taskLanes(
    _ steps: [ScheduleRun.Step], names: [UInt64: String]
  ) -> [MarbleLane] {
    let tasks = Set(steps.compactMap(\.task)).sorted()
    let lanes: [(task: UInt64?, title: String)] =
      tasks.enumerated().map { number, task in (task, names[task] ?? "task \(number + 1)") }
      + (steps.contains { $0.task == nil } ? [(nil, "actor jobs")] : [])
    return lanes.map { lane in
      MarbleLane(
        title: lane.title, role: .actual,
        items: steps.indices.filter { steps[$0].task == lane.task }.map { index in
          MarbleLane.Item(frame: index, mark: .value(steps[index].isDeparture ? "●*" : "●"))
        })
    }
  }
}
