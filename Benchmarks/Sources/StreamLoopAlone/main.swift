import StreamLoop

// Phase g's bare loop in a process that does not link Marbles.
await timeBareStreamLoop()
