package helper

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// How gatekeep starts the helper: /proc/self/exe with Arg as its first
// argument, a pipe at StatusFD where the helper reports a failure before
// the command runs (it closes once the command runs), a pipe at PlanFD
// the helper reads its Msg from (Encode; gatekeep may start the helper
// before the plan is made, and writes it when it is), and with a proxy
// the helper's end of a socket pair at ProxyFD. The helper's environment
// is the command's.
const (
	Arg      = "__gatekeep_confine"
	StatusFD = 3
	PlanFD   = 4
	ProxyFD  = 5
)

// Plan is the part of the confinement plan the helper applies (the
// policy's confine.Plan, as enforce hands it over).
type Plan struct {
	// Full: the helper runs in new user, mount and PID (and network)
	// namespaces: it makes the mounts and is the init of the command's
	// PID namespace. Else it restricts its thread and execs in place.
	Full bool
	// Writable and Readable bound the command's writes and reads
	// (Landlock); Readable nil reads everywhere.
	Writable []string
	Readable []string
	// ReadOnly are bound read-only, Hidden covered, Pinned bound onto
	// themselves (full tier).
	ReadOnly []string
	Hidden   []string
	Pinned   []string
	// Network lets the command open sockets other than Unix ones.
	Network bool
	// ProxyPort, with Network off in the full tier, is the port of the
	// proxy's listener on the namespace's loopback: the command may
	// connect to it, over TCP only.
	ProxyPort int
}

// Msg is what the parent hands the helper on PlanFD.
type Msg struct {
	Plan  Plan
	Path  string
	Argv  []string
	Probe string // a directory the probe must fail to write in
}

// confineThread applies no_new_privs, Landlock, the capability bounds and
// the seccomp filter (terminal injection; sockets when the network is
// off) to the calling, locked thread.
func confineThread(p Plan, abi int) error {
	// The helper got CAP_SYS_ADMIN as an ambient capability to mount;
	// the command must not keep it across exec.
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil {
		return fmt.Errorf("clearing ambient capabilities: %w", err)
	}
	if err := NoNewPrivs(); err != nil {
		return err
	}
	if err := LandlockRestrict(abi, p.Writable, p.Readable, p.Network, p.ProxyPort); err != nil {
		return err
	}
	if err := dropCapabilities(); err != nil {
		return err
	}
	rules := ttyRules
	switch {
	case p.ProxyPort != 0:
		rules = append(append([]sysRule(nil), rules...), proxyNetworkRules...)
	case !p.Network:
		rules = append(append([]sysRule(nil), rules...), networkRules...)
	}
	return installFilter(rules)
}

// keptCaps are the capabilities a confined command run by root keeps:
// those over files and ids, which Landlock bounds (a project owned by
// another user stays writable to root). The rest go: CAP_SYS_PTRACE lets
// root read another process's /proc/N/environ past Landlock, CAP_MKNOD a
// block device in the project, CAP_SYS_MODULE, CAP_SYS_RAWIO,
// CAP_NET_ADMIN and CAP_SYS_BOOT act on the whole machine.
var keptCaps = []uintptr{unix.CAP_CHOWN, unix.CAP_DAC_OVERRIDE, unix.CAP_DAC_READ_SEARCH, unix.CAP_FOWNER,
	unix.CAP_FSETID, unix.CAP_KILL, unix.CAP_SETGID, unix.CAP_SETUID}

// dropCapabilities takes every capability but keptCaps from the calling
// thread: from its bounding set (so exec gives root no more) and its
// effective, permitted and inheritable sets. A thread with no capability
// to drop (a non-root user) has nothing to do.
func dropCapabilities() error {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return fmt.Errorf("capget: %w", err)
	}
	var keep [2]uint32
	for _, c := range keptCaps {
		keep[c/32] |= 1 << (c % 32)
	}
	if data[0].Permitted&^keep[0] == 0 && data[1].Permitted&^keep[1] == 0 {
		return nil
	}
	// Without CAP_SETPCAP the bounding set cannot shrink, and needs not:
	// exec gives a user other than root no capability (no_new_privs
	// ignores file capabilities; the ambient set is cleared).
	setpcap := data[unix.CAP_SETPCAP/32].Effective&(1<<(unix.CAP_SETPCAP%32)) != 0
	for c := uintptr(0); setpcap && c <= unix.CAP_LAST_CAP; c++ {
		if keep[c/32]&(1<<(c%32)) != 0 {
			continue
		}
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, c, 0, 0, 0); err != nil && !errors.Is(err, unix.EINVAL) {
			return fmt.Errorf("dropping capability %d: %w", c, err)
		}
	}
	for i := range data {
		data[i].Effective &= keep[i]
		data[i].Permitted &= keep[i]
		data[i].Inheritable &= keep[i]
	}
	if err := unix.Capset(&hdr, &data[0]); err != nil {
		return fmt.Errorf("capset: %w", err)
	}
	return nil
}

// closeExtraFDs makes every descriptor above 2 close at exec, so the
// command gets only stdin, stdout and stderr: a descriptor inherited from
// gatekeep's caller (a TCP connection, a directory of the outer mount
// tree, reached through /proc/self/fd/N) would pass by the network filter
// and the hidden secrets. They are marked close-on-exec rather than
// closed, so the Go runtime's own descriptors stay usable until exec.
func closeExtraFDs() error {
	err := unix.CloseRange(3, ^uint(0), unix.CLOSE_RANGE_CLOEXEC)
	if err == nil {
		return nil
	}
	if !errors.Is(err, unix.ENOSYS) && !errors.Is(err, unix.EINVAL) {
		return fmt.Errorf("close_range: %w", err)
	}
	// Before Linux 5.11: each open descriptor, as /proc lists it.
	d, err := os.Open("/proc/self/fd")
	if err != nil {
		return err
	}
	names, err := d.Readdirnames(-1)
	d.Close()
	if err != nil {
		return err
	}
	for _, n := range names {
		var fd int
		if _, err := fmt.Sscanf(n, "%d", &fd); err != nil || fd < 3 {
			continue
		}
		if _, err := unix.FcntlInt(uintptr(fd), unix.F_SETFD, unix.FD_CLOEXEC); err != nil && !errors.Is(err, unix.EBADF) {
			return err
		}
	}
	return nil
}

// The helper runs from this package's initialization, before the rest of
// gatekeep's packages (the policy, the shell parser, the TOML, HTTP and
// gob libraries) are initialized: Go initializes a package as soon as its
// imports are, in import-path order (the Go spec, "Package
// initialization"), and this package imports only the lower standard
// library and x/sys/unix (TestHelperStartsBeforeTheRest checks it with
// Go's init trace). The initialization of the rest, which the helper
// never uses, was a third of its start (docs/benchmarks.md). When the
// process is a helper, init does not return.
func init() {
	if code, ok := helperMain(); ok {
		os.Exit(code)
	}
}

// helperMain runs the helper when gatekeep was started as one (argument
// Arg); it returns false otherwise. In the
// full tier the helper is the init of the command's PID namespace and
// returns the command's status (runInit); in the Landlock tier, and for
// the probe, it restricts its own thread and execs the command in place:
// on success it does not return.
func helperMain() (int, bool) {
	if len(os.Args) < 2 || os.Args[1] != Arg {
		return 0, false
	}
	runtime.LockOSThread()
	start := newStarter()
	status := os.NewFile(StatusFD, "status")
	fail := func(stage string, err error) (int, bool) {
		fmt.Fprintf(status, "%s: %v", stage, err)
		return 70, true
	}
	var msg Msg
	planPipe := os.NewFile(PlanFD, "plan")
	b, err := io.ReadAll(planPipe)
	planPipe.Close()
	if err == nil {
		msg, err = decode(b)
	}
	if err != nil {
		return fail("plan", err)
	}
	env := os.Environ()
	abi, err := LandlockABI()
	if err != nil {
		return fail("landlock", err)
	}
	if msg.Plan.Full {
		if err := setupMounts(msg.Plan); err != nil {
			return fail("mount", err)
		}
		if msg.Probe == "" {
			stage, code, err := runInit(start, msg, env, abi, status)
			if err != nil {
				return fail(stage, err)
			}
			return code, true
		}
	}
	if err := confineThread(msg.Plan, abi); err != nil {
		return fail("confine", err)
	}
	if msg.Probe != "" {
		// A ruleset that does not stop a write never counts.
		f, err := os.Create(msg.Probe + "/probe")
		if err == nil {
			f.Close()
			return fail("landlock", errors.New("a write outside the writable dirs was not refused"))
		}
		if s, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM, 0); err == nil {
			unix.Close(s)
			return fail("seccomp", errors.New("a UDP socket was not refused"))
		}
		return 0, true
	}
	// A session of its own: the terminal is no longer the command's
	// controlling terminal, so it cannot open /dev/tty to type into it
	// (seccomp refuses TIOCSTI on the descriptors it has). gatekeep, in
	// the terminal's foreground group, passes Ctrl-C on to the group.
	if _, err := unix.Setsid(); err != nil {
		return fail("session", err)
	}
	// The status pipe is among them: it closes at exec, telling the
	// parent the exec happened.
	if err := closeExtraFDs(); err != nil {
		return fail("descriptors", err)
	}
	err = unix.Exec(msg.Path, msg.Argv, env)
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return fail("exec", fmt.Errorf("%d", int(errno)))
	}
	return fail("exec", err)
}

// setupMounts binds each read-only path onto itself read-only, and covers
// each hidden path: a file with /dev/null, a directory with an empty
// read-only tmpfs. The mount namespace was made with a new user
// namespace, so the kernel turned its shared mounts into slaves: nothing
// mounted here propagates back (mount_namespaces(7)). Each path is opened
// without following a final symlink and mounted through its /proc/self/fd
// link, so a path swapped after planning cannot redirect the mount.
func setupMounts(p Plan) error {
	for _, path := range p.Pinned {
		if err := withPath(path, func(fdPath string, dir bool) error {
			if !dir {
				return errors.New("not a directory")
			}
			return unix.Mount(fdPath, fdPath, "", unix.MS_BIND|unix.MS_REC, "")
		}); err != nil {
			return fmt.Errorf("pinning %s: %w", path, err)
		}
	}
	for _, path := range p.ReadOnly {
		if err := withPath(path, func(fdPath string, dir bool) error {
			if err := unix.Mount(fdPath, fdPath, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
				return err
			}
			return remountRO(path)
		}); err != nil {
			return fmt.Errorf("read-only %s: %w", path, err)
		}
	}
	for _, path := range p.Hidden {
		if err := withPath(path, func(fdPath string, dir bool) error {
			if dir {
				return unix.Mount("tmpfs", fdPath, "tmpfs", unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "size=4k,mode=0555")
			}
			return unix.Mount("/dev/null", fdPath, "", unix.MS_BIND, "")
		}); err != nil {
			return fmt.Errorf("hiding %s: %w", path, err)
		}
	}
	return nil
}

// withPath opens path without following a final symlink (a missing path
// is skipped) and calls fn with its /proc/self/fd name.
func withPath(path string, fn func(fdPath string, dir bool) error) error {
	fd, err := unix.Open(path, unix.O_PATH|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if errors.Is(err, unix.ENOENT) {
		return nil
	}
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return err
	}
	if st.Mode&unix.S_IFMT == unix.S_IFLNK {
		return errors.New("is a symbolic link")
	}
	return fn(fmt.Sprintf("/proc/self/fd/%d", fd), st.Mode&unix.S_IFMT == unix.S_IFDIR)
}

// remountRO makes the bind mount at path read-only, keeping the flags the
// kernel locks in a user namespace (nosuid, nodev, noexec, atime).
func remountRO(path string) error {
	var st unix.Statfs_t
	if err := unix.Statfs(path, &st); err != nil {
		return err
	}
	flags := uintptr(unix.MS_BIND | unix.MS_REMOUNT | unix.MS_RDONLY)
	for _, f := range []struct{ st, ms uintptr }{
		{unix.ST_NOSUID, unix.MS_NOSUID}, {unix.ST_NODEV, unix.MS_NODEV}, {unix.ST_NOEXEC, unix.MS_NOEXEC},
		{unix.ST_NOATIME, unix.MS_NOATIME}, {unix.ST_NODIRATIME, unix.MS_NODIRATIME}, {unix.ST_RELATIME, unix.MS_RELATIME},
	} {
		if uintptr(st.Flags)&f.st != 0 {
			flags |= f.ms
		}
	}
	return unix.Mount("", path, "", flags, "")
}

// forwarded are the signals gatekeep passes to the command. The command
// runs in a session of its own (no controlling terminal), so SIGINT and
// SIGQUIT typed at the terminal reach gatekeep alone, which passes them
// to the command's process group; Ctrl-Z (SIGTSTP) stops that group and
// then gatekeep, and SIGCONT resumes the group.
var forwarded = []os.Signal{syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT,
	syscall.SIGUSR1, syscall.SIGUSR2, syscall.SIGALRM, syscall.SIGWINCH, syscall.SIGCONT, syscall.SIGTSTP}

// NotifySignals starts catching the forwarded signals; they queue until
// Relay passes them on.
func NotifySignals() chan os.Signal {
	sigs := make(chan os.Signal, 16)
	signal.Notify(sigs, forwarded...)
	return sigs
}

// Relay passes each signal arriving on sigs to send until the returned
// stop is called; stop ends the catching and reports whether a SIGQUIT
// was passed on. A run that was sent SIGQUIT ends as 131 whatever the
// command's own status: bash ignores SIGQUIT, so its status would be that
// of whatever ran after the signal killed its child.
func Relay(sigs chan os.Signal, send func(syscall.Signal)) (stop func() (quit bool)) {
	var quit atomic.Bool
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case s := <-sigs:
				if s == syscall.SIGQUIT {
					quit.Store(true)
				}
				send(s.(syscall.Signal))
			case <-done:
				return
			}
		}
	}()
	return func() bool {
		signal.Stop(sigs)
		close(done)
		wg.Wait()
		return quit.Load()
	}
}

// ToCommand passes s to the command pid, which leads a session and a
// process group of its own, as the terminal would have: what the
// terminal sends its foreground group (SIGINT, SIGQUIT, SIGCONT) goes to
// the whole group, Ctrl-Z (SIGTSTP) stops the group, the rest goes to
// the command's main process.
func ToCommand(pid int, s syscall.Signal) {
	switch s {
	case syscall.SIGINT, syscall.SIGQUIT, syscall.SIGCONT:
		unix.Kill(-pid, s)
	case syscall.SIGTSTP:
		unix.Kill(-pid, unix.SIGSTOP)
	default:
		unix.Kill(pid, s)
	}
}

// ExitCode is the status gatekeep reports for ws: the exit code, or
// 128+N for a signal N, as a shell does.
func ExitCode(ws syscall.WaitStatus) int {
	if ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ws.ExitStatus()
}

// runInit is the full-tier helper's life as the init (PID 1) of the
// command's PID namespace, after the mounts: it starts the command on a
// confined thread, passes on the signals gatekeep sends it, reaps every
// process re-parented to it, and when the command's main process ends,
// kills every other process of the namespace and reaps them before it
// returns the command's status; the kernel would kill them anyway when
// it exits. A failure before the command runs returns its stage.
func runInit(start starter, msg Msg, env []string, abi int, status *os.File) (string, int, error) {
	if os.Getpid() != 1 {
		// kill(-1) below would reach every process of the user.
		return "pid namespace", 0, errors.New("the helper is not the init of a PID namespace")
	}
	// A /proc of this namespace: it lists only the run's processes, and
	// /proc/N is the process getpid() names inside. A kernel that
	// refuses (a container masking parts of /proc) leaves the outer one.
	unix.Mount("proc", "/proc", "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "")
	// The thread that starts the command shares its Landlock domain
	// until it ends, and a process of the same domain may ptrace one
	// another: not dumpable, this process (which holds CAP_SYS_ADMIN
	// over the mounts) cannot be ptraced or have its memory read or
	// written through /proc by the command, which has no CAP_SYS_PTRACE.
	if err := unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0); err != nil {
		return "dumpable", 0, err
	}
	// Descriptors inherited from gatekeep's caller (and the status pipe)
	// must not reach the command.
	if err := closeExtraFDs(); err != nil {
		return "descriptors", 0, err
	}
	if port := msg.Plan.ProxyPort; port != 0 {
		if err := openProxyListener(port); err != nil {
			return "proxy", 0, err
		}
	}
	sigs := NotifySignals()
	pid, err := startConfined(start, msg.Plan, abi, msg.Path, msg.Argv, env)
	if err != nil {
		signal.Stop(sigs)
		var errno syscall.Errno
		if errors.As(err, &errno) {
			return "exec", 0, fmt.Errorf("%d", int(errno))
		}
		return "confine", 0, err
	}
	// The command runs: gatekeep stops waiting for a failure.
	status.Close()
	// The relay is never stopped: the helper exits once the namespace
	// is empty, and what it passes on after the command's end reaches
	// only processes of the namespace, all about to be killed.
	Relay(sigs, func(s syscall.Signal) { ToCommand(pid, s) })
	code := 70 // a wait that fails before the command's end (cannot happen)
	for {
		var ws syscall.WaitStatus
		wpid, err := syscall.Wait4(-1, &ws, syscall.WALL, nil)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			break
		}
		if wpid == pid {
			code = ExitCode(ws)
			break
		}
	}
	// As the init, kill(-1) reaches every other process of the
	// namespace and of the namespaces below it, and nothing else.
	unix.Kill(-1, unix.SIGKILL)
	for {
		_, err := syscall.Wait4(-1, nil, syscall.WALL, nil)
		if err != nil && !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	return "", code, nil
}

// startConfined starts path on the starter's thread, which confineThread
// restricts: the command inherits the thread's restrictions at fork. The thread is
// never the process's main thread, whose domain is what the Landlock
// scopes compare when the command signals or ptraces this process, and
// it ends as soon as the command runs (a goroutine that exits locked
// takes its thread with it), so no thread of this process shares the
// command's domain while it runs. It returns the command's PID, or the
// errno of a failed fork or exec, or the confinement's failure.
func startConfined(s starter, p Plan, abi int, path string, argv, env []string) (int, error) {
	type result struct {
		pid int
		err error
	}
	done := make(chan result, 1)
	s <- func() {
		if err := confineThread(p, abi); err != nil {
			done <- result{err: err}
			return
		}
		pid, err := syscall.ForkExec(path, argv, &syscall.ProcAttr{
			Env:   env,
			Files: []uintptr{0, 1, 2},
			// A session of its own: the terminal is no longer the
			// command's controlling terminal, so it cannot open
			// /dev/tty to type into it (seccomp refuses TIOCSTI on
			// the descriptors it has).
			Sys: &syscall.SysProcAttr{Setsid: true},
		})
		done <- result{pid, err}
	}
	r := <-done
	return r.pid, r.err
}

// starter runs one function on a locked thread that is not the
// process's main thread and that ends with it (startConfined). The
// helper makes it first, so that the thread is made while the helper
// waits for its plan.
type starter chan func()

func newStarter() starter {
	s := make(starter, 1)
	run := func() {
		runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
		(<-s)()
	}
	go func() {
		runtime.LockOSThread()
		if unix.Gettid() != unix.Getpid() {
			(<-s)()
			return
		}
		// The main thread: hold it while another thread does it.
		held := make(chan struct{})
		go func() {
			defer close(held)
			run()
		}()
		<-held
		runtime.UnlockOSThread()
	}()
	return s
}

// landlockRuleNetPort is LANDLOCK_RULE_NET_PORT (Landlock ABI 4).
const landlockRuleNetPort = 2

// netPortAttr is struct landlock_net_port_attr.
type netPortAttr struct {
	allowed, port uint64
}

// openProxyListener runs in the helper, inside the new network namespace
// and before the command starts: it brings the loopback interface up,
// listens on 127.0.0.1:port and sends the listening socket to gatekeep
// over ProxyFD, then closes its own copies. A socket keeps the network
// namespace it was made in, so gatekeep accepts there while its own
// connections go out through the host's.
func openProxyListener(port int) error {
	ctl, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("socket: %w", err)
	}
	ifr, err := unix.NewIfreq("lo")
	if err == nil {
		err = unix.IoctlIfreq(ctl, unix.SIOCGIFFLAGS, ifr)
	}
	if err == nil {
		ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
		err = unix.IoctlIfreq(ctl, unix.SIOCSIFFLAGS, ifr)
	}
	unix.Close(ctl)
	if err != nil {
		return fmt.Errorf("bringing up the loopback interface: %w", err)
	}
	ln, err := unix.Socket(unix.AF_INET, unix.SOCK_STREAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("socket: %w", err)
	}
	defer unix.Close(ln)
	if err := unix.Bind(ln, &unix.SockaddrInet4{Port: port, Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		return fmt.Errorf("bind 127.0.0.1:%d: %w", port, err)
	}
	if err := unix.Listen(ln, 128); err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	defer unix.Close(ProxyFD)
	if err := unix.Sendmsg(ProxyFD, []byte{'L'}, unix.UnixRights(ln), nil, 0); err != nil {
		return fmt.Errorf("passing the listener: %w", err)
	}
	return nil
}

// addProxyRule lets the Landlock ruleset fd connect to TCP port.
func addProxyRule(fd uintptr, port int) error {
	rule := netPortAttr{allowed: unix.LANDLOCK_ACCESS_NET_CONNECT_TCP, port: uint64(port)}
	if _, _, e := unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, fd, landlockRuleNetPort,
		uintptr(unsafe.Pointer(&rule)), 0, 0, 0); e != 0 {
		return fmt.Errorf("landlock: add rule for port %d: %w", port, e)
	}
	return nil
}

// proxyNetworkRules are networkRules for a command that reaches the
// proxy: sockets may be Unix ones, or TCP over IPv4 or IPv6 (type
// SOCK_STREAM, protocol 0 or IPPROTO_TCP; not MPTCP, which Landlock's TCP
// rules do not cover on every kernel); io_uring stays refused.
var proxyNetworkRules = []sysRule{
	{nr: unix.SYS_SOCKET, tcpOnly: true, errno: unix.EACCES},
	{nr: unix.SYS_IO_URING_SETUP, argNe: -1, errno: unix.EPERM},
}

// tcpOnlyFilter is the BPF for a tcpOnly socket rule: the syscall number
// is loaded; errno is the refusal.
func tcpOnlyFilter(nr int, refuse unix.SockFilter) []unix.SockFilter {
	stmt := func(code uint16, k uint32) unix.SockFilter { return unix.SockFilter{Code: code, K: k} }
	jump := func(k uint32, jt, jf uint8) unix.SockFilter {
		return unix.SockFilter{Code: bpfJMP | bpfJEQ | bpfK, K: k, Jt: jt, Jf: jf}
	}
	allow := stmt(bpfRET|bpfK, unix.SECCOMP_RET_ALLOW)
	body := []unix.SockFilter{
		/* 0 */ stmt(bpfLD|bpfW|bpfABS, offArg0),
		/* 1 */ jump(unix.AF_UNIX, 10, 0), // → 12 allow
		/* 2 */ jump(unix.AF_INET, 1, 0), // → 4
		/* 3 */ jump(unix.AF_INET6, 0, 7), // → 4, else 11 refuse
		/* 4 */ stmt(bpfLD|bpfW|bpfABS, offArg0+8),
		/* 5 */ stmt(bpfALU|bpfAND|bpfK, 0xf), // SOCK_TYPE_MASK
		/* 6 */ jump(unix.SOCK_STREAM, 0, 4), // else 11 refuse
		/* 7 */ stmt(bpfLD|bpfW|bpfABS, offArg0+16),
		/* 8 */ jump(0, 3, 0), // → 12 allow
		/* 9 */ jump(unix.IPPROTO_TCP, 2, 0), // → 12 allow
		/* 10 */ stmt(bpfJMP|bpfJA, 0), // → 11
		/* 11 */ refuse,
		/* 12 */ allow,
	}
	// nr == socket ? body : skip it
	return append([]unix.SockFilter{jump(uint32(nr), 0, uint8(len(body)))}, body...)
}
