//go:build unix

package shellparse

import (
	"syscall"
	"time"
)

// cpuNow is the CPU time the test process has used: a bound on how long
// parsing takes that other processes' load on the machine does not move.
func cpuNow() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
