package confine

import "syscall"

// statCtime is the status change time in nanoseconds (stat(2) st_ctim).
func statCtime(st *syscall.Stat_t) int64 { return st.Ctim.Nano() }
