import Dispatch
import MarbleTesting

/// Runs the reporters' tasks on a queue of their own.
final class ReporterExecutor: TaskExecutor {
  static let shared = ReporterExecutor()
  private let queue = DispatchQueue(label: "marbles.reporter")

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    // NB: Marbles' own work, never a world's work handed outside.
    RealTime.reading { queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) } }
  }
}
