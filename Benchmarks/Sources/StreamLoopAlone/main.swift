import StreamLoop

// Phase g's loops in a process that does not link Marbles.
await timeBothLoops()
