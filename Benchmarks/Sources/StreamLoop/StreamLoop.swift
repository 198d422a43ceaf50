import Dispatch

/// Phase g's bare loop: a detached task iterating an `AsyncStream` of `count` buffered values,
/// timed `runs` times in this process; returns the median in seconds.
public func timeBareStreamLoop(count: Int = 100_000, runs: Int = 5) async -> Double {
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
  return times.sorted()[runs / 2]
}

/// Phase g's main-actor jobs: a detached task hopping to the main actor and back `count` times,
/// timed `runs` times in this process; returns the median in seconds.
public func timeMainActorHops(count: Int = 20_000, runs: Int = 5) async -> Double {
  var times: [Double] = []
  for _ in 0..<runs {
    let start = DispatchTime.now().uptimeNanoseconds
    let hops = await Task.detached {
      var hops = 0
      for _ in 0..<count { hops &+= await MainActor.run { 1 } }
      return hops
    }.value
    precondition(hops == count)
    times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
  }
  return times.sorted()[runs / 2]
}

/// Prints both medians on one line, for the benchmark that started the process (see
/// `SideProcesses.swift` in MarblesBenchmarks).
public func timeBothLoops() async {
  let stream = await timeBareStreamLoop()
  let mainActor = await timeMainActorHops()
  print(stream, mainActor)
}
