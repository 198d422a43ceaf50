import Dispatch

/// Phase g's bare loop: a detached task iterating an `AsyncStream` of `count` buffered values,
/// timed `runs` times in this process; prints the median in seconds, for the benchmark that
/// started the process (see `SideProcesses.swift` in MarblesBenchmarks).
public func timeBareStreamLoop(count: Int = 100_000, runs: Int = 5) async {
  var times: [Double] = []
  var sink = 0
  for _ in 0..<runs {
    let start = DispatchTime.now().uptimeNanoseconds
    sink &+= await Task.detached {
      let stream = AsyncStream<Int> { continuation in
        for value in 0..<count { continuation.yield(value) }
        continuation.finish()
      }
      var sum = 0
      for await value in stream { sum &+= value }
      return sum
    }.value
    times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
  }
  precondition(sink != 1)
  print(times.sorted()[runs / 2])
}
