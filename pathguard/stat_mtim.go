//go:build unix && !(darwin || ios || freebsd || netbsd)

package pathguard

import "syscall"

func mtime(st *syscall.Stat_t) int64 { return st.Mtim.Nano() }
