import MarbleTesting
import StreamLoop

// Phase g's bare loop in a process that links Marbles (its load-time hook, its clock wrapper)
// but makes no scheduler. The scheduler below is never made; it keeps MarbleTesting linked.
if CommandLine.arguments.contains("--make-a-scheduler") { _ = TestScheduler() }
await timeBareStreamLoop()
