package helper

import (
	"errors"
	"fmt"
	"unsafe"

	"golang.org/x/sys/unix"
)

// rulesetAttr is struct landlock_ruleset_attr up to ABI 7 (24 bytes).
type rulesetAttr struct {
	fs, net, scoped uint64
}

// pathBeneath is struct landlock_path_beneath_attr (packed, 12 bytes).
type pathBeneath struct {
	allowed uint64
	fd      int32
}

// LandlockABI is the kernel's Landlock ABI version, 0 when unavailable.
func LandlockABI() (int, error) {
	v, _, e := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if e != 0 {
		return 0, fmt.Errorf("landlock: %w", e)
	}
	return int(v), nil
}

// fsWrite are the rights that change the file system (Landlock ABI 1),
// handled so that only Writable grants them. Reads and execution are not
// handled: they are allowed everywhere (secrets are hidden by mounts).
const fsWrite = unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_REMOVE_DIR |
	unix.LANDLOCK_ACCESS_FS_REMOVE_FILE | unix.LANDLOCK_ACCESS_FS_MAKE_CHAR |
	unix.LANDLOCK_ACCESS_FS_MAKE_DIR | unix.LANDLOCK_ACCESS_FS_MAKE_REG |
	unix.LANDLOCK_ACCESS_FS_MAKE_SOCK | unix.LANDLOCK_ACCESS_FS_MAKE_FIFO |
	unix.LANDLOCK_ACCESS_FS_MAKE_BLOCK | unix.LANDLOCK_ACCESS_FS_MAKE_SYM

// handledFS is fsWrite plus the rights later ABIs add: REFER (2),
// TRUNCATE (3).
func handledFS(abi int) uint64 {
	h := uint64(fsWrite)
	if abi >= 2 {
		h |= unix.LANDLOCK_ACCESS_FS_REFER
	}
	if abi >= 3 {
		h |= unix.LANDLOCK_ACCESS_FS_TRUNCATE
	}
	return h
}

// fileRights are the rights a rule on a non-directory may carry.
const fileRights = unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_TRUNCATE |
	unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_EXECUTE

// fsRead are the rights handled when reads are bounded too: reading a
// file (an executable is opened for reading as well), listing a dir,
// executing.
const fsRead = unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_READ_DIR | unix.LANDLOCK_ACCESS_FS_EXECUTE

// devFiles are device files any program writes to; devDirs are device
// directories it creates files in (POSIX shared memory, ptys).
var (
	devFiles = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/tty", "/dev/ptmx"}
	devDirs  = []string{"/dev/pts", "/dev/shm"}
)

// LandlockRestrict enforces a ruleset on the calling thread: writes only
// below writable (and to the device files above), reads only below
// writable and readable when readable is not nil, no TCP unless network,
// no signals to processes outside (ABI 6), no abstract Unix sockets
// outside unless network (ABI 6). The caller has locked the thread and set
// no_new_privs. It fails when the kernel refuses any step: a ruleset that
// is not enforced never counts.
func LandlockRestrict(abi int, writable, readable []string, network bool, port int) error {
	if abi < 1 {
		return errors.New("landlock is not available")
	}
	attr := rulesetAttr{fs: handledFS(abi)}
	if readable != nil {
		attr.fs |= fsRead
	}
	if abi >= 4 && !network {
		attr.net = unix.LANDLOCK_ACCESS_NET_BIND_TCP | unix.LANDLOCK_ACCESS_NET_CONNECT_TCP
	}
	if abi >= 6 {
		attr.scoped = unix.LANDLOCK_SCOPE_SIGNAL
		if !network {
			attr.scoped |= unix.LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET
		}
	}
	size := unsafe.Sizeof(attr)
	if abi < 4 {
		size = 8
	} else if abi < 6 {
		size = 16
	}
	fd, _, e := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), size, 0)
	if e != 0 {
		return fmt.Errorf("landlock: create ruleset: %w", e)
	}
	defer unix.Close(int(fd))
	add := func(path string, rights uint64, must bool) error {
		p, err := unix.Open(path, unix.O_PATH|unix.O_CLOEXEC, 0)
		if err != nil {
			if !must && errors.Is(err, unix.ENOENT) {
				return nil
			}
			return fmt.Errorf("landlock: open %s: %w", path, err)
		}
		defer unix.Close(p)
		var st unix.Stat_t
		if err := unix.Fstat(p, &st); err != nil {
			return fmt.Errorf("landlock: stat %s: %w", path, err)
		}
		if st.Mode&unix.S_IFMT != unix.S_IFDIR {
			rights &= fileRights
		}
		rights &= attr.fs
		rule := pathBeneath{allowed: rights, fd: int32(p)}
		if _, _, e := unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, fd, unix.LANDLOCK_RULE_PATH_BENEATH,
			uintptr(unsafe.Pointer(&rule)), 0, 0, 0); e != 0 {
			return fmt.Errorf("landlock: add rule for %s: %w", path, e)
		}
		return nil
	}
	for _, w := range writable {
		if err := add(w, attr.fs, false); err != nil {
			return err
		}
	}
	if readable != nil {
		// Every dir can be listed (names are not contents, and stat
		// shows them anyway): `ls /`, `find ~ -name x` keep working.
		if err := add("/", unix.LANDLOCK_ACCESS_FS_READ_DIR, true); err != nil {
			return err
		}
	}
	for _, r := range readable {
		// One that cannot be opened is not read: stricter, never looser.
		if err := add(r, fsRead, false); err != nil && !errors.Is(err, unix.EACCES) && !errors.Is(err, unix.ELOOP) &&
			!errors.Is(err, unix.ENOTDIR) && !errors.Is(err, unix.EPERM) {
			return err
		}
	}
	for _, f := range devFiles {
		if err := add(f, fileRights, false); err != nil {
			return err
		}
	}
	for _, d := range devDirs {
		if err := add(d, attr.fs, false); err != nil {
			return err
		}
	}
	if attr.net != 0 && port != 0 {
		if err := addProxyRule(fd, port); err != nil {
			return err
		}
	}
	if _, _, e := unix.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, fd, 0, 0); e != 0 {
		return fmt.Errorf("landlock: restrict self: %w", e)
	}
	return nil
}

// NoNewPrivs sets no_new_privs on the calling thread (Landlock and seccomp
// need it without CAP_SYS_ADMIN; it also keeps setuid programs from
// gaining privileges).
func NoNewPrivs() error {
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("prctl no_new_privs: %w", err)
	}
	return nil
}
