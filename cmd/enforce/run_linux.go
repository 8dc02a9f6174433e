package enforce

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/gatekeep/gatekeep/cmd/enforce/helper"
)

// errNoNamespaces is a refusal to create the helper's namespaces.
var errNoNamespaces = errors.New("user namespaces are refused")

// UnavailableError means enforcement could not be set up; nothing ran.
type UnavailableError struct{ Err error }

func (e *UnavailableError) Error() string { return "enforcement is unavailable: " + e.Err.Error() }

func (e *UnavailableError) Unwrap() error { return e.Err }

// ExecError is an execve failure of the command itself (not found, not
// executable), from inside the sandbox.
type ExecError struct {
	Errno syscall.Errno
}

func (e *ExecError) Error() string { return e.Errno.Error() }

func (e *ExecError) Unwrap() error { return e.Errno }

// Run runs path with argv and env confined by p and returns its exit
// status (128+N for a signal N). Nothing the command starts outlives the
// run: in the full tier it runs in a PID namespace of its own, in the
// Landlock tier gatekeep kills what it left (see runLandlock). When the
// full tier's namespaces are refused at run time it falls back to the
// Landlock tier (unless p.RequireFull); any other failure to set the full
// tier up is an error. A *UnavailableError means nothing ran. early, when not nil, is a helper
// started ahead (StartEarly): Run uses it when it suits p, and ends it
// otherwise.
func Run(p Plan, early *Early, path string, argv, env []string, note func(string)) (int, error) {
	defer early.Discard()
	if p.Tier == TierFull {
		status, err := runFull(p, early, path, argv, env)
		// Only a refusal of the namespaces themselves falls back: a
		// plan the helper cannot set up (a mount that fails, too many
		// of them) may come from what an earlier confined command left
		// in the project, and must not buy the next run the weaker
		// tier, where the protected paths stay writable.
		if !errors.Is(err, errNoNamespaces) || p.RequireFull {
			return status, err
		}
		if p.Proxy != nil {
			note("the landlock tier cannot confine connections to the proxy, so the command has no network (allowed_hosts are not reachable)")
		}
		p.Tier = TierLandlock
	}
	if p.Tier != TierLandlock {
		return 0, &UnavailableError{Err: errors.New("no enforcing tier")}
	}
	return runLandlock(p, path, argv, env, note)
}

// proc is a started helper: its process, the read end of its status
// pipe and the write end of its plan pipe.
type proc struct {
	c        *exec.Cmd
	status   *os.File
	plan     *os.File
	probeErr bytes.Buffer
}

// spawnOpts say how to start a helper.
type spawnOpts struct {
	// namespaced: in new user, mount and PID namespaces, and a network
	// one unless network.
	namespaced, network bool
	// proxyEnd, when not nil, is the helper's end of the proxy's socket
	// pair.
	proxyEnd *os.File
	// probe: no stdin or stdout, stderr kept in the proc's probeErr.
	probe bool
}

// spawn starts the helper with env (the command's environment), which
// then waits for its Msg (send). It gets SIGKILL when gatekeep's thread
// that started it ends (its parent-death signal): in the full tier that
// ends the whole PID namespace. The caller has locked that thread.
func spawn(env []string, o spawnOpts) (*proc, error) {
	statusR, statusW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	planR, planW, err := os.Pipe()
	if err != nil {
		statusR.Close()
		statusW.Close()
		return nil, err
	}
	c := &exec.Cmd{
		Path:       "/proc/self/exe",
		Args:       []string{os.Args[0], helper.Arg},
		Env:        env,
		Stdin:      os.Stdin,
		Stdout:     os.Stdout,
		Stderr:     os.Stderr,
		ExtraFiles: []*os.File{statusW, planR}, // helper.StatusFD, helper.PlanFD
	}
	if o.proxyEnd != nil {
		c.ExtraFiles = append(c.ExtraFiles, o.proxyEnd) // helper.ProxyFD
	}
	h := &proc{c: c}
	if o.probe {
		c.Stdin, c.Stdout, c.Stderr = nil, nil, &h.probeErr
	}
	attr := &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if o.namespaced {
		attr.Cloneflags = syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS | syscall.CLONE_NEWPID
		// A process group of its own: the terminal's Ctrl-C reaches
		// gatekeep alone, which passes it on once.
		attr.Setpgid = true
		if !o.network {
			attr.Cloneflags |= syscall.CLONE_NEWNET
		}
		uid, gid := os.Getuid(), os.Getgid()
		if uid == 0 {
			// Root maps every id, so files of other users keep their
			// owners (an unmapped owner would be "nobody" and root
			// would lose its access to them).
			attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: 0, Size: 1<<32 - 1}}
			attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: 0, Size: 1<<32 - 1}}
			attr.GidMappingsEnableSetgroups = true
		} else {
			// The same ids inside, so files keep their owners (git
			// refuses a repository owned by someone else).
			attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
			attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
		}
		// The helper needs CAP_SYS_ADMIN in its namespace to mount; the
		// thread that starts the command drops the ambient set.
		attr.AmbientCaps = []uintptr{unix.CAP_SYS_ADMIN}
		if o.proxyEnd != nil {
			// To bring the namespace's loopback interface up.
			attr.AmbientCaps = append(attr.AmbientCaps, unix.CAP_NET_ADMIN)
		}
	}
	c.SysProcAttr = attr
	err = c.Start()
	for _, f := range c.ExtraFiles {
		f.Close()
	}
	if err != nil {
		statusR.Close()
		planW.Close()
		return nil, err
	}
	h.status, h.plan = statusR, planW
	return h, nil
}

// send hands the helper msg and closes the plan pipe. A helper that
// ended meanwhile says why on its status pipe (started).
func (h *proc) send(msg helper.Msg) {
	b, err := helper.Encode(msg)
	if err == nil {
		_, _ = h.plan.Write(b)
	}
	h.plan.Close()
}

// started reads the status pipe until it closes: nil when the command
// runs, else the helper's failure, once it is waited for.
func (h *proc) started() error {
	defer h.status.Close()
	report, _ := io.ReadAll(io.LimitReader(h.status, 4096))
	if len(report) == 0 {
		return nil
	}
	h.c.Wait()
	return helperFailure(string(report))
}

// kill ends a helper that was sent no plan.
func (h *proc) kill() {
	h.plan.Close()
	h.status.Close()
	h.c.Process.Kill()
	h.c.Wait()
}

// wire is the part of p the helper applies.
func wire(p Plan) helper.Plan {
	return helper.Plan{Full: p.Tier == TierFull, Writable: p.Writable, Readable: p.Readable, ReadOnly: p.ReadOnly,
		Hidden: p.Hidden, Pinned: p.Pinned, Network: p.Network, ProxyPort: proxyPort(p)}
}

// helperFailure turns the helper's report ("STAGE: message" or
// "exec: ERRNO") into an error.
func helperFailure(report string) error {
	stage, msg, _ := strings.Cut(report, ": ")
	if stage == "exec" {
		var n int
		if _, err := fmt.Sscanf(msg, "%d", &n); err == nil {
			return &ExecError{Errno: syscall.Errno(n)}
		}
	}
	return &UnavailableError{Err: errors.New(report)}
}

// Probe finds what this machine supports by trying it in helper processes:
// the full tier in new namespaces, else Landlock and seccomp alone. Each
// probe must also see a write outside its writable dir refused.
func Probe() Support {
	var s Support
	abi, err := helper.LandlockABI()
	s.LandlockABI = abi
	if err != nil {
		s.Errors = append(s.Errors, err.Error())
		return s
	}
	dir, err := os.MkdirTemp("", "gatekeep-probe-")
	if err != nil {
		s.Errors = append(s.Errors, err.Error())
		return s
	}
	defer os.RemoveAll(dir)
	w, outside := filepath.Join(dir, "w"), filepath.Join(dir, "x")
	ro := filepath.Join(w, "ro")
	for _, d := range []string{w, outside, ro} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			s.Errors = append(s.Errors, err.Error())
			return s
		}
	}
	try := func(t Tier) error {
		p := Plan{Tier: t, Writable: []string{w}}
		if t == TierFull {
			p.ReadOnly = []string{ro}
		}
		h, err := spawn(os.Environ(), spawnOpts{namespaced: t == TierFull, probe: true})
		if err != nil {
			return err
		}
		h.send(helper.Msg{Plan: wire(p), Probe: outside})
		defer h.status.Close()
		report, _ := io.ReadAll(io.LimitReader(h.status, 4096))
		err = h.c.Wait()
		if len(report) > 0 {
			return errors.New(string(report))
		}
		if err != nil {
			return fmt.Errorf("probe helper: %v %s", err, strings.TrimSpace(h.probeErr.String()))
		}
		return nil
	}
	if err := try(TierFull); err == nil {
		s.Landlock, s.Seccomp, s.Namespaces = true, true, true
		return s
	} else {
		s.Errors = append(s.Errors, "namespaces: "+err.Error())
	}
	if err := try(TierLandlock); err == nil {
		s.Landlock, s.Seccomp = true, true
	} else {
		s.Errors = append(s.Errors, err.Error())
	}
	return s
}

// LandlockABI is the kernel's Landlock ABI version, 0 when Landlock is
// missing, disabled or refused. It is a cheap first test; only Probe
// shows a ruleset is really enforced.
func LandlockABI() int {
	abi, _ := helper.LandlockABI()
	return abi
}

// Confined runs fn on a thread of its own, restricted by Landlock to
// p.Writable, for the file tools: gatekeep's own reads and writes. The
// thread is never unlocked, so the runtime discards it afterwards.
func Confined(p Plan, fn func() error) error {
	abi, err := helper.LandlockABI()
	if err != nil || abi < 1 {
		return &UnavailableError{Err: errors.New("landlock is not available")}
	}
	done := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		if err := helper.NoNewPrivs(); err != nil {
			done <- &UnavailableError{Err: err}
			return
		}
		if err := helper.LandlockRestrict(abi, p.Writable, nil, true, 0); err != nil {
			done <- &UnavailableError{Err: err}
			return
		}
		done <- fn()
	}()
	return <-done
}

// Anchor is an O_PATH handle of a directory, taken before the command
// runs: what is removed after it is found from there, never by a path the
// command could have redirected meanwhile.
type Anchor struct{ fd int }

// OpenAnchor opens dir (no symbolic link in its last part).
func OpenAnchor(dir string) (*Anchor, error) {
	fd, err := unix.Open(dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	return &Anchor{fd: fd}, nil
}

// Close releases the handle.
func (a *Anchor) Close() { unix.Close(a.fd) }

// ErrNotRegular is RemoveFile's refusal of anything but a regular file
// or a symbolic link.
var ErrNotRegular = errors.New("not a regular file")

// RemoveFile unlinks rel, a relative path beneath the anchor, when it is a
// regular file or a symbolic link (the link itself goes, never what it
// points to: a link at .git/commondir would steer git as a file does).
// Its directory is opened with openat2 beneath the anchor
// with no symbolic link on the way, so a directory swapped for a link
// leads nowhere; nothing is removed recursively.
func (a *Anchor) RemoveFile(rel string) error {
	return a.removeIf(rel, func(m uint32) bool { return m == unix.S_IFREG || m == unix.S_IFLNK }, ErrNotRegular)
}

// removeIf unlinks rel (beneath the anchor, through no link) when its
// type (S_IFMT bits) is one keep accepts, else returns refused. Swapped
// for a directory meanwhile, unlinkat without AT_REMOVEDIR fails; swapped
// for another file or a link, that entry (beneath the anchor) is what
// goes.
func (a *Anchor) removeIf(rel string, keep func(mode uint32) bool, refused error) error {
	dfd, name, err := a.openParent(rel)
	if err != nil {
		return err
	}
	defer unix.Close(dfd)
	var st unix.Stat_t
	if err := unix.Fstatat(dfd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return err
	}
	if !keep(st.Mode & unix.S_IFMT) {
		return refused
	}
	return unix.Unlinkat(dfd, name, 0)
}

// beneath is how a path below an anchor is opened: no step out of it, no
// symbolic link on the way.
var beneath = unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS | unix.RESOLVE_NO_XDEV

// ReadHead returns the HEAD file of the git dir the anchor holds, or nil
// when it is missing, not a regular file or not a valid HEAD.
func (a *Anchor) ReadHead() []byte {
	fd, err := unix.Openat2(a.fd, "HEAD", &unix.OpenHow{Flags: unix.O_RDONLY | unix.O_NOFOLLOW | unix.O_NONBLOCK | unix.O_CLOEXEC, Resolve: uint64(beneath)})
	if err != nil {
		return nil
	}
	f := os.NewFile(uintptr(fd), "HEAD")
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil
	}
	b, err := io.ReadAll(io.LimitReader(f, 4096))
	if err != nil || !ValidHead(b) {
		return nil
	}
	return b
}

// ValidHead reports whether b is a HEAD git accepts when it looks for a
// repository (validate_headref in git's setup.c): "ref: refs/..." or an
// object name (40 or 64 hex digits).
func ValidHead(b []byte) bool {
	s := string(b)
	if rest, ok := strings.CutPrefix(s, "ref:"); ok {
		rest = strings.TrimLeft(rest, " \t")
		return strings.HasPrefix(rest, "refs/")
	}
	s = strings.TrimRight(s, "\n")
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// GitState is what a git dir held before a confined command ran.
type GitState struct{ head []byte }

// ReadGitState reads the git dir the anchor holds: nil when it is no
// repository to git (no valid HEAD, refs/ or objects/).
func (a *Anchor) ReadGitState() *GitState {
	head := a.ReadHead()
	if head == nil || !a.isDir("refs") || !a.isDir("objects") {
		return nil
	}
	return &GitState{head: head}
}

func (a *Anchor) isDir(name string) bool {
	var st unix.Stat_t
	return unix.Fstatat(a.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFDIR
}

// RepairGitDir keeps the git dir the anchor holds a repository to git
// after a confined command ran, when it was one before (s not nil): a
// HEAD that is no longer valid is put back as it was, a missing refs/ or
// objects/ made again (empty). It returns what it repaired and what it
// could not, one sentence each.
func (a *Anchor) RepairGitDir(s *GitState) []string {
	if s == nil {
		return nil
	}
	head := s.head
	var out []string
	if a.ReadHead() == nil {
		if err := a.replace("HEAD", head); err != nil {
			out = append(out, fmt.Sprintf("HEAD is no longer valid and could not be put back: %v", err))
		} else {
			out = append(out, "HEAD was no longer valid and was put back as it was")
		}
	}
	for _, d := range []string{"refs", "objects"} {
		var st unix.Stat_t
		err := unix.Fstatat(a.fd, d, &st, unix.AT_SYMLINK_NOFOLLOW)
		if err == nil && st.Mode&unix.S_IFMT == unix.S_IFDIR {
			continue
		}
		if err == nil {
			if m := st.Mode & unix.S_IFMT; m != unix.S_IFREG && m != unix.S_IFLNK {
				out = append(out, fmt.Sprintf("%s/ is no longer a directory and was left", d))
				continue
			}
			if err := unix.Unlinkat(a.fd, d, 0); err != nil {
				out = append(out, fmt.Sprintf("%s/ is no longer a directory and could not be removed: %v", d, err))
				continue
			}
		} else if !errors.Is(err, unix.ENOENT) {
			out = append(out, fmt.Sprintf("%s/: %v", d, err))
			continue
		}
		if err := unix.Mkdirat(a.fd, d, 0o755); err != nil {
			out = append(out, fmt.Sprintf("%s/ is missing and could not be made again: %v", d, err))
		} else {
			out = append(out, fmt.Sprintf("%s/ was missing and was made again (empty)", d))
		}
	}
	return out
}

// replace writes b to name beneath the anchor: a new file renamed over
// whatever is there (a file or a link; not a directory).
func (a *Anchor) replace(name string, b []byte) error {
	tmp := name + ".gatekeep-restore"
	unix.Unlinkat(a.fd, tmp, 0)
	fd, err := unix.Openat2(a.fd, tmp, &unix.OpenHow{Flags: unix.O_WRONLY | unix.O_CREAT | unix.O_EXCL | unix.O_NOFOLLOW | unix.O_CLOEXEC,
		Mode: 0o644, Resolve: uint64(beneath)})
	if err != nil {
		return err
	}
	f := os.NewFile(uintptr(fd), tmp)
	_, err = f.Write(b)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = unix.Renameat(a.fd, tmp, a.fd, name)
	}
	if err != nil {
		unix.Unlinkat(a.fd, tmp, 0)
	}
	return err
}
