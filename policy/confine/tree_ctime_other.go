//go:build !linux && !windows

package confine

import "syscall"

// statCtime is 0 where the field's name varies (st_ctimespec on macOS):
// nothing is confined there, so no sweep relies on the index.
func statCtime(*syscall.Stat_t) int64 { return 0 }
