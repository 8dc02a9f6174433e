package enforce

// The lifetime of a confined run: starting the command, passing signals
// on, returning its status, and making sure that nothing it started is
// left when Run returns. Every wait is for an event (a child's
// exit, a pidfd becoming readable, a pipe closing), never a sleep.

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/gatekeep/gatekeep/cmd/enforce/helper"
)

// stopSelf stops gatekeep after its command's group on Ctrl-Z, so the
// shell that started gatekeep sees the job stopped; its SIGCONT (fg, bg)
// is passed on.
func stopSelf(s syscall.Signal) {
	if s == syscall.SIGTSTP {
		unix.Kill(os.Getpid(), unix.SIGSTOP)
	}
}

// runFull runs the command in the full tier: the helper, in new user,
// mount, PID (and network) namespaces, is the init of the command's PID
// namespace (runInit) and exits with the command's status once it has
// killed everything else there. If gatekeep is killed, the helper's
// parent-death signal kills it, and the kernel then kills every process
// of the namespace; the mounts go with the last of them.
func runFull(p Plan, early *Early, path string, argv, env []string) (int, error) {
	// The parent-death signal follows the thread that started the
	// helper: it must not end while the helper runs.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var proxyConn, helperEnd *os.File
	if p.Proxy != nil && p.Proxy.Serve == nil {
		p.Proxy = nil // nobody to serve it: the network stays off
	}
	if proxyPort(p) != 0 {
		var err error
		if proxyConn, helperEnd, err = proxyPair(); err != nil {
			return 0, &UnavailableError{Err: err}
		}
		defer proxyConn.Close()
		env = ProxyEnv(env, p.Proxy.Port)
	}
	if n := len(p.Pinned) + len(p.ReadOnly) + len(p.Hidden); n > MaxMounts {
		return 0, &UnavailableError{Err: fmt.Errorf("the plan needs %d mounts (protected paths and secret files to hide) and the full tier makes at most %d", n, MaxMounts)}
	}
	h := early.take(p, env)
	if h == nil {
		var err error
		h, err = spawn(env, spawnOpts{namespaced: true, network: p.Network, proxyEnd: helperEnd})
		if err != nil {
			// Namespaces refused (Docker, an AppArmor-restricted
			// Ubuntu): the landlock tier is what this machine offers,
			// as the probe says; nothing to report on each call.
			return 0, &UnavailableError{Err: fmt.Errorf("%w: %w", errNoNamespaces, err)}
		}
	}
	sigs := helper.NotifySignals()
	h.send(helper.Msg{Plan: wire(p), Path: path, Argv: argv})
	if err := h.started(); err != nil {
		signal.Stop(sigs)
		return 0, err
	}
	c := h.c
	var served chan struct{}
	if proxyConn != nil {
		// The helper sent the listener before it started the command.
		ln, err := receiveProxyListener(proxyConn)
		if err != nil {
			signal.Stop(sigs)
			c.Process.Kill()
			c.Wait()
			return 0, &UnavailableError{Err: err}
		}
		served = make(chan struct{})
		go func() {
			defer close(served)
			p.Proxy.Serve(ln)
		}()
		defer func() {
			ln.Close()
			<-served
		}()
	}
	// The helper passes each signal on as helper.ToCommand says.
	stop := helper.Relay(sigs, func(s syscall.Signal) {
		c.Process.Signal(s)
		stopSelf(s)
	})
	err := c.Wait()
	quit := stop()
	return runStatus(c, quit, err)
}

// MaxMounts bounds the mounts a full-tier plan may ask for (one a
// protected path, pinned dir or hidden secret file): the kernel allows a
// mount namespace 100,000 (fs.mount-max), a project planted with more
// secret files than that would fail the mounts anyway, and each costs
// the helper a few microseconds. A plan past it is not run.
const MaxMounts = 10000

// Early is a full-tier helper started while gatekeep still works out the
// plan (StartEarly): the helper's own start, a process start of gatekeep
// and the namespaces, takes about as long as the plan, so the two
// overlap. The helper waits for its plan; Run hands it over, or ends the
// helper and starts another when the plan turned out to need a different
// one (a network namespace, the proxy's socket pair, another
// environment). A nil *Early is none.
type Early struct {
	network bool
	env     []string
	// A goroutine locked to its thread starts the helper (ready is
	// closed then, h or err set) and keeps the thread until done is
	// closed: the helper's parent-death signal follows the thread that
	// started it, which must outlive it.
	ready, done chan struct{}
	h           *proc
	err         error
	taken       bool
}

// StartEarly starts a full-tier helper for a plan with the network on or
// off and the command's environment env, without waiting for it: the
// namespaces and the helper's exec are made on another thread while the
// caller goes on.
func StartEarly(network bool, env []string) *Early {
	e := &Early{network: network, env: env, ready: make(chan struct{}), done: make(chan struct{})}
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		e.h, e.err = spawn(env, spawnOpts{namespaced: true, network: network})
		close(e.ready)
		<-e.done
	}()
	return e
}

// take hands over the helper when it suits plan p and env, else ends it
// (and Run starts another, which fails and falls back as it says when
// this one could not be started).
func (e *Early) take(p Plan, env []string) *proc {
	if e == nil || e.taken {
		return nil
	}
	e.taken = true
	<-e.ready
	if e.err != nil {
		return nil
	}
	if e.network != p.Network || proxyPort(p) != 0 || !slices.Equal(e.env, env) {
		e.h.kill()
		return nil
	}
	return e.h
}

// Discard ends the helper if Run did not take it, and lets its thread go;
// Run calls it once the helper it took has been waited for.
func (e *Early) Discard() {
	if e == nil {
		return
	}
	if !e.taken {
		e.taken = true
		<-e.ready
		if e.err == nil {
			e.h.kill()
		}
	}
	select {
	case <-e.done:
	default:
		close(e.done)
	}
}

// runStatus is the status of a run whose helper c was waited for (err is
// the wait's error): 131 when a SIGQUIT was passed on (quit), else the
// helper's exit code, or 128+N for a signal N.
func runStatus(c *exec.Cmd, quit bool, err error) (int, error) {
	if c.ProcessState == nil {
		return 0, err
	}
	ws, ok := c.ProcessState.Sys().(syscall.WaitStatus)
	if !ok {
		return 0, err
	}
	if quit {
		return 128 + int(syscall.SIGQUIT), nil
	}
	return helper.ExitCode(ws), nil
}

// runLandlock runs the command in the Landlock tier, where no namespace
// can be made: a helper (without namespaces) restricts its thread and
// execs the command in place, so no thread of gatekeep is in the
// command's Landlock domain and the scopes keep the command from
// signalling or ptracing gatekeep (ABI 6 and later). gatekeep is a child
// subreaper: whatever the command starts stays its descendant, even
// after a double fork or setsid, and when the command's main process
// ends, endDescendants kills them all before Run returns. The command
// gets SIGKILL if gatekeep dies (its parent-death signal), but what it
// started does not: a kill -9 of gatekeep leaves them running.
func runLandlock(p Plan, path string, argv, env []string, note func(string)) (int, error) {
	if abi, err := helper.LandlockABI(); err != nil || abi < 1 {
		return 0, &UnavailableError{Err: errors.New("landlock is not available")}
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return 0, &UnavailableError{Err: fmt.Errorf("subreaper: %w", err)}
	}
	h, err := spawn(env, spawnOpts{})
	if err != nil {
		return 0, &UnavailableError{Err: err}
	}
	sigs := helper.NotifySignals()
	h.send(helper.Msg{Plan: wire(p), Path: path, Argv: argv})
	if err := h.started(); err != nil {
		signal.Stop(sigs)
		return 0, err
	}
	c := h.c
	pid := c.Process.Pid
	stop := helper.Relay(sigs, func(s syscall.Signal) {
		helper.ToCommand(pid, s)
		stopSelf(s)
	})
	// Waited for but not reaped: its PID (and group ID) cannot name
	// another process until the relay has stopped.
	var info unix.Siginfo
	for {
		if err := unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOWAIT, nil); !errors.Is(err, unix.EINTR) {
			break
		}
	}
	quit := stop()
	err = c.Wait()
	if err := endDescendants(); err != nil {
		note(fmt.Sprintf("processes the command started may still run: %v", err))
	}
	return runStatus(c, quit, err)
}

// endDescendants kills every descendant of this process, a child
// subreaper, and reaps them. Each round reaps the children that ended;
// with none left there is no descendant at all (every orphan of the tree
// is re-parented here), else it kills every descendant /proc lists, by
// pidfd, and waits for their pidfds to turn readable (they ended). A
// process forked meanwhile is found in the next round. It gives up when
// the processes it killed do not end within ten seconds (stuck in the
// kernel; with SIGKILL pending they run no more code) or /proc lists
// none while children remain.
func endDescendants() error {
	self := os.Getpid()
	deadline := time.Now().Add(10 * time.Second)
	for {
		for {
			pid, err := unix.Wait4(-1, nil, unix.WNOHANG|unix.WALL, nil)
			if errors.Is(err, unix.EINTR) || err == nil && pid > 0 {
				continue
			}
			if errors.Is(err, unix.ECHILD) {
				return nil
			}
			if err != nil {
				return err
			}
			break
		}
		fds := descendantPidfds(self)
		if len(fds) == 0 {
			return errors.New("/proc lists none of them")
		}
		for _, fd := range fds {
			unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0)
		}
		err := awaitPidfds(fds, deadline)
		for _, fd := range fds {
			unix.Close(fd)
		}
		if err != nil {
			return err
		}
	}
}

// awaitPidfds waits until every pidfd is readable (its process ended) or
// the deadline passes.
func awaitPidfds(fds []int, deadline time.Time) error {
	pfds := make([]unix.PollFd, len(fds))
	for i, fd := range fds {
		pfds[i] = unix.PollFd{Fd: int32(fd), Events: unix.POLLIN}
	}
	for len(pfds) > 0 {
		left := time.Until(deadline)
		if left <= 0 {
			return fmt.Errorf("%d of them did not end", len(pfds))
		}
		n, err := unix.Poll(pfds, int(left/time.Millisecond)+1)
		if errors.Is(err, unix.EINTR) || err == nil && n == 0 {
			continue
		}
		if err != nil {
			return err
		}
		kept := pfds[:0]
		for _, p := range pfds {
			if p.Revents == 0 {
				kept = append(kept, p)
			}
		}
		pfds = kept
	}
	return nil
}

// descendantPidfds opens a pidfd on every descendant of self that /proc
// lists, parents before children. A PID read from /proc may name another
// process by the time it is opened, so each one counts only when, after
// its pidfd is open, /proc still gives it the parent it had and that
// parent has not ended yet (self, or a descendant whose pidfd is open):
// then the pidfd is of that parent's child.
func descendantPidfds(self int) []int {
	children := map[int][]int{}
	d, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	for _, n := range names {
		pid, err := strconv.Atoi(n)
		if err != nil {
			continue
		}
		if ppid := parentOf(pid); ppid > 0 {
			children[ppid] = append(children[ppid], pid)
		}
	}
	var fds []int
	type node struct{ pid, fd int }
	queue := []node{{self, -1}}
	for len(queue) > 0 {
		parent := queue[0]
		queue = queue[1:]
		for _, pid := range children[parent.pid] {
			fd, err := unix.PidfdOpen(pid, 0)
			if err != nil {
				continue
			}
			if parentOf(pid) != parent.pid || parent.fd >= 0 && ended(parent.fd) {
				unix.Close(fd)
				continue
			}
			fds = append(fds, fd)
			queue = append(queue, node{pid, fd})
		}
	}
	return fds
}

// parentOf is pid's parent as /proc/PID/stat gives it, 0 when unknown.
func parentOf(pid int) int {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0
	}
	// pid (comm) state ppid ...: comm may hold spaces and parens.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 2 {
		return 0
	}
	ppid, _ := strconv.Atoi(f[1])
	return ppid
}

// ended reports whether the process of pidfd fd has ended.
func ended(fd int) bool {
	p := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	n, err := unix.Poll(p, 0)
	return err == nil && n > 0
}
