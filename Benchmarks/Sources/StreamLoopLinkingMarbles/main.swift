import MarbleTesting
import StreamLoop

// Phase g's loops in a process that links Marbles (its clock wrappers) but opens no world: the
// scheduler below is never made; it keeps MarbleTesting linked.
if CommandLine.arguments.contains("--make-a-scheduler") { _ = TestScheduler() }
await timeBothLoops()
