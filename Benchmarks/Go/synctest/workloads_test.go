// The side-by-side workloads of Marbles' benchmark phase p, written with Go's testing/synctest
// the way the Swift side is written with withVirtualTime: each test runs one workload, checks its
// result, and prints one line — the workload, its real and user CPU time, its peak memory and
// what it checked — that the Swift harness reads. Run one at a time: `-test.run '^TestW1$'`.
package synctestbench

import (
	"fmt"
	"math/rand"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"testing/synctest"
	"time"
)

// peakKiB is this process's peak resident memory: VmHWM, which exec resets (getrusage's maxrss
// keeps the high-water mark of the process that started this one).
func peakKiB() int {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(status), "\n") {
		if strings.HasPrefix(line, "VmHWM:") {
			var kib int
			fmt.Sscanf(strings.TrimSpace(strings.TrimPrefix(line, "VmHWM:")), "%d", &kib)
			return kib
		}
	}
	return -1
}

// report prints the line the harness reads, with this process's CPU time and peak memory.
func report(t *testing.T, name string, start time.Time, check string) {
	real := time.Since(start)
	var usage syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &usage)
	user := time.Duration(usage.Utime.Sec)*time.Second + time.Duration(usage.Utime.Usec)*time.Microsecond
	fmt.Printf("RESULT %s real=%.6f user=%.6f maxrss_kib=%d check=%s\n",
		name, real.Seconds(), user.Seconds(), peakKiB(), check)
}

// W1: 10,000 children sleeping 1…10,000 ms in a seeded order, awaited.
func TestW1(t *testing.T) {
	start := time.Now()
	var elapsed time.Duration
	synctest.Test(t, func(t *testing.T) {
		order := rand.New(rand.NewSource(42)).Perm(10_000)
		begin := time.Now()
		var group sync.WaitGroup
		for _, index := range order {
			group.Add(1)
			go func(ms int) {
				defer group.Done()
				time.Sleep(time.Duration(ms) * time.Millisecond)
			}(index + 1)
		}
		group.Wait()
		elapsed = time.Since(begin)
	})
	if elapsed != 10*time.Second {
		t.Fatalf("W1: virtual elapsed %v, want 10s", elapsed)
	}
	report(t, "W1", start, fmt.Sprintf("virtual=%v", elapsed))
}

// W2: 100,000 sequential 1 ms sleeps.
func TestW2(t *testing.T) {
	start := time.Now()
	var elapsed time.Duration
	synctest.Test(t, func(t *testing.T) {
		begin := time.Now()
		for i := 0; i < 100_000; i++ {
			time.Sleep(time.Millisecond)
		}
		elapsed = time.Since(begin)
	})
	if elapsed != 100*time.Second {
		t.Fatalf("W2: virtual elapsed %v, want 1m40s", elapsed)
	}
	report(t, "W2", start, fmt.Sprintf("virtual=%v", elapsed))
}

// W3: 10,000 fresh bubbles, each a 1 s sleep raced against a 2 s timeout.
func TestW3(t *testing.T) {
	start := time.Now()
	sleeps := 0
	for i := 0; i < 10_000; i++ {
		synctest.Test(t, func(t *testing.T) {
			done := make(chan struct{})
			go func() {
				time.Sleep(time.Second)
				close(done)
			}()
			select {
			case <-done:
				sleeps++
			case <-time.After(2 * time.Second):
			}
		})
	}
	if sleeps != 10_000 {
		t.Fatalf("W3: the sleep won %d of 10000", sleeps)
	}
	report(t, "W3", start, fmt.Sprintf("sleep-won=%d", sleeps))
}

// W4: 100,000 messages ping-ponged over two channels, a 1 ms sleep before each hop.
func TestW4(t *testing.T) {
	start := time.Now()
	var elapsed time.Duration
	received := 0
	synctest.Test(t, func(t *testing.T) {
		begin := time.Now()
		ping, pong := make(chan int), make(chan int)
		go func() {
			for message := range ping {
				time.Sleep(time.Millisecond)
				pong <- message + 1
			}
			close(pong)
		}()
		for i := 0; i < 50_000; i++ {
			time.Sleep(time.Millisecond)
			ping <- i
			<-pong
			received += 2
		}
		close(ping)
		elapsed = time.Since(begin)
	})
	if received != 100_000 || elapsed != 100*time.Second {
		t.Fatalf("W4: %d messages in %v, want 100000 in 1m40s", received, elapsed)
	}
	report(t, "W4", start, fmt.Sprintf("messages=%d virtual=%v", received, elapsed))
}
