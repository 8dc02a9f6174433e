package pathguard

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// tree is a real temp tree with real symlinks:
//
//	base/
//	  proj/                root
//	    a.txt src/main.go sub/ hl.txt (hard link of outside/hl.txt)
//	    link -> /etc            notes.txt -> home/.ssh/authorized_keys
//	    notes2.txt -> home/.ssh/id_missing (dangling)
//	    dangling -> nothing-here     dl -> dangling
//	    loop1 -> loop2 -> loop1      self -> self
//	    inlink -> sub           outdir -> ../outside
//	    deep -> base/outside/d1/d2   up -> ..
//	    hooklink -> .git/hooks
//	    .gatekeep/config.toml .git/{config,HEAD,hooks/} sub/.git (file)
//	    .envrc .bashrc cfg/gatekeep/
//	  proj-evil/x          (prefix trick)
//	  tmp/                 root
//	  home/.ssh/authorized_keys home/work/   (Options.Home, not a root)
//	  homelink -> home
//	  outside/d1/d2/ outside/hl.txt
type tree struct {
	base, proj, tmp, home, out string
	g                          *Guard
}

func newTree(t testing.TB) *tree {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the tree uses Unix symlinks and /etc")
	}
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	tr := &tree{
		base: base,
		proj: filepath.Join(base, "proj"),
		tmp:  filepath.Join(base, "tmp"),
		home: filepath.Join(base, "home"),
		out:  filepath.Join(base, "outside"),
	}
	for _, d := range []string{
		"proj/src", "proj/sub", "proj/.gatekeep", "proj/.git/hooks", "proj/cfg/gatekeep",
		"proj-evil", "tmp", "home/.ssh", "home/work", "outside/d1/d2",
	} {
		mkdir(t, filepath.Join(base, d))
	}
	for _, f := range []string{
		"proj/a.txt", "proj/src/main.go", "proj/.gatekeep/config.toml", "proj/.git/config",
		"proj/.git/HEAD", "proj/.envrc", "proj/.bashrc", "proj-evil/x",
		"home/.ssh/authorized_keys", "outside/hl.txt",
	} {
		write(t, filepath.Join(base, f), "x\n")
	}
	write(t, filepath.Join(tr.proj, "sub/.git"), "gitdir: ../.git/modules/sub\n")
	if err := os.Link(filepath.Join(tr.out, "hl.txt"), filepath.Join(tr.proj, "hl.txt")); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{
		"link":       "/etc",
		"notes.txt":  filepath.Join(tr.home, ".ssh/authorized_keys"),
		"notes2.txt": filepath.Join(tr.home, ".ssh/id_missing"),
		"dangling":   "nothing-here",
		"dl":         "dangling",
		"loop1":      "loop2",
		"loop2":      "loop1",
		"self":       "self",
		"inlink":     "sub",
		"outdir":     "../outside",
		"deep":       filepath.Join(tr.out, "d1/d2"),
		"up":         "..",
		"hooklink":   ".git/hooks",
	} {
		symlink(t, target, filepath.Join(tr.proj, link))
	}
	symlink(t, tr.home, filepath.Join(base, "homelink"))
	g, errs := New([]string{tr.proj, tr.tmp}, Options{Home: tr.home, ConfigDirs: []string{filepath.Join(tr.proj, "cfg/gatekeep")}})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	tr.g = g
	return tr
}

func mkdir(t testing.TB, d string) {
	t.Helper()
	if err := os.MkdirAll(d, 0o755); err != nil {
		t.Fatal(err)
	}
}

func write(t testing.TB, f, s string) {
	t.Helper()
	if err := os.WriteFile(f, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func symlink(t testing.TB, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// expand replaces {base} {proj} {tmp} {home} {out} {etc} in s.
func (tr *tree) expand(s string) string {
	etc, _ := filepath.EvalSymlinks("/etc") // /private/etc on macOS
	return strings.NewReplacer("{base}", tr.base, "{proj}", tr.proj, "{tmp}", tr.tmp,
		"{home}", tr.home, "{out}", tr.out, "{etc}", etc).Replace(s)
}

func TestCheck(t *testing.T) {
	tr := newTree(t)
	tests := []struct {
		name string
		cwd  string // "" means {proj}
		path string
		code string
		real string // checked when not ""
	}{
		// inside
		{name: "file", path: "a.txt", real: "{proj}/a.txt"},
		{name: "nested", path: "src/main.go", real: "{proj}/src/main.go"},
		{name: "absolute", path: "{proj}/src/main.go", real: "{proj}/src/main.go"},
		{name: "root itself", path: ".", real: "{proj}"},
		{name: "dot dot inside", path: "./src/../a.txt", real: "{proj}/a.txt"},
		{name: "double slashes", path: "src//main.go", real: "{proj}/src/main.go"},
		{name: "missing tail", path: "new/deeper/file.txt", real: "{proj}/new/deeper/file.txt"},
		{name: "missing tail trailing slash", path: "sub/newdir/", real: "{proj}/sub/newdir"},
		{name: "missing tail under symlinked dir", path: "inlink/new/dir/file.txt", real: "{proj}/sub/new/dir/file.txt"},
		{name: "missing then back", path: "new/../a.txt", real: "{proj}/a.txt"},
		{name: "missing then back into link", path: "new/x/../../inlink/f", real: "{proj}/sub/f"},
		{name: "link up and back in", path: "up/proj/a.txt", real: "{proj}/a.txt"},
		{name: "dot dot after link is physical (in)", path: "deep/../../../proj/a.txt", real: "{proj}/a.txt"},
		{name: "logical cwd through link", cwd: "{proj}/inlink", path: "../a.txt", real: "{proj}/a.txt"},
		{name: "second root", path: "{tmp}/x/y", real: "{tmp}/x/y"},
		{name: "empty cwd absolute path", cwd: "-", path: "{proj}/a.txt", real: "{proj}/a.txt"},

		// outside
		{name: "link to etc", path: "link/passwd", code: CodeOutside, real: "{etc}/passwd"},
		{name: "link itself", path: "link", code: CodeOutside, real: "{etc}"},
		{name: "new file through link", path: "link/new/deeper/f", code: CodeOutside, real: "{etc}/new/deeper/f"},
		{name: "link to authorized_keys", path: "notes.txt", code: CodeOutside, real: "{home}/.ssh/authorized_keys"},
		{name: "parent escape", path: "../../x", code: CodeOutside},
		{name: "absolute etc", path: "/etc/hosts", code: CodeOutside},
		{name: "prefix trick", path: "{base}/proj-evil/x", code: CodeOutside, real: "{base}/proj-evil/x"},
		{name: "prefix trick dir", path: "../proj-evil", code: CodeOutside, real: "{base}/proj-evil"},
		{name: "prefix trick via link", path: "up/proj-evil/x", code: CodeOutside},
		{name: "dot dot after link is physical (out)", path: "deep/../x", code: CodeOutside, real: "{out}/d1/x"},
		{name: "dot dot after link, missing tail", path: "deep/../new/file", code: CodeOutside, real: "{out}/d1/new/file"},
		{name: "dot dot after link to etc", path: "link/../hosts", code: CodeOutside},
		{name: "missing then back into outside link", path: "new/../link/passwd", code: CodeOutside, real: "{etc}/passwd"},
		{name: "relative link out", path: "outdir/new/file", code: CodeOutside, real: "{out}/new/file"},
		{name: "link up and out", path: "up/outside/x", code: CodeOutside, real: "{out}/x"},
		{name: "cwd through link", cwd: "{proj}/deep", path: "x", code: CodeOutside, real: "{out}/d1/d2/x"},
		{name: "tilde", path: "~", code: CodeOutside, real: "{home}"},
		{name: "tilde slash", path: "~/.ssh/authorized_keys", code: CodeOutside, real: "{home}/.ssh/authorized_keys"},
		{name: "dollar home", path: "$HOME/.bashrc", code: CodeOutside, real: "{home}/.bashrc"},
		{name: "braced home", path: "${HOME}/x", code: CodeOutside, real: "{home}/x"},
		{name: "home via link", path: "{base}/homelink/x", code: CodeOutside, real: "{home}/x"},
		{name: "root parent", path: "/..", code: CodeOutside, real: "/"},

		// dangling, loops, not a directory
		{name: "dangling final", path: "dangling", code: CodeDangling},
		{name: "dangling middle", path: "dangling/x", code: CodeDangling},
		{name: "dangling chain", path: "dl", code: CodeDangling},
		{name: "dangling to home", path: "notes2.txt", code: CodeDangling},
		{name: "loop", path: "loop1", code: CodeLoop},
		{name: "loop middle", path: "loop1/x", code: CodeLoop},
		{name: "self loop then dot dot", path: "self/../a.txt", code: CodeLoop},
		{name: "file as dir", path: "a.txt/x", code: CodeUnresolvable},
		{name: "file then dot dot", path: "a.txt/../b", code: CodeUnresolvable},
		{name: "name too long", path: strings.Repeat("n", 300) + "/x", code: CodeUnresolvable},

		// malformed requests
		{name: "empty path", path: "", code: CodeInvalid},
		{name: "relative cwd", cwd: "rel", path: "a.txt", code: CodeInvalid},
		{name: "relative cwd absolute path", cwd: "rel", path: "/etc/hosts", code: CodeInvalid},
		{name: "empty cwd", cwd: "-", path: "a.txt", code: CodeInvalid},
		{name: "other user", path: "~root/.bashrc", code: CodeInvalid},
		{name: "nul byte", path: "a\x00b", code: CodeInvalid},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cwd := tr.expand(tc.cwd)
			switch tc.cwd {
			case "":
				cwd = tr.proj
			case "-":
				cwd = ""
			}
			r := tr.g.Check(cwd, tr.expand(tc.path))
			if r.Code != tc.code {
				t.Fatalf("Check(%q, %q) code = %q (real %q, err %v), want %q", cwd, tc.path, r.Code, r.Real, r.Err, tc.code)
			}
			if want := tr.expand(tc.real); tc.real != "" && r.Real != want {
				t.Errorf("Check(%q, %q).Real = %q, want %q", cwd, tc.path, r.Real, want)
			}
			switch {
			case r.Inside() && (r.Root == "" || !within(r.Root, r.Real)):
				t.Errorf("inside, but Root %q does not hold Real %q", r.Root, r.Real)
			case !r.Inside() && r.Root != "":
				t.Errorf("not inside, but Root = %q", r.Root)
			case r.Code != "" && r.Code != CodeOutside && (r.Err == nil || r.Real != ""):
				t.Errorf("code %s: Err = %v, Real = %q; want an error and no Real", r.Code, r.Err, r.Real)
			}
		})
	}
}

// TestCheckAgreesWithEvalSymlinks: for every path that exists, Check's Real
// is what filepath.EvalSymlinks says.
func TestCheckAgreesWithEvalSymlinks(t *testing.T) {
	tr := newTree(t)
	for _, p := range []string{
		".", "a.txt", "link", "link/passwd", "link/../etc/hosts", "notes.txt", "inlink", "inlink/..",
		"inlink/../a.txt", "outdir", "outdir/d1/d2/..", "deep", "deep/..", "deep/../..", "deep/../../../proj",
		"up", "up/proj/up/proj", "up/homelink/work", "hooklink", "hooklink/..", "sub/.git", "../../../../..",
	} {
		raw := tr.proj + "/" + p
		want, err := filepath.EvalSymlinks(raw)
		if err != nil {
			t.Fatalf("EvalSymlinks(%q): %v", raw, err)
		}
		if r := tr.g.Check(tr.proj, p); r.Real != want || (r.Code != "" && r.Code != CodeOutside) {
			t.Errorf("Check(proj, %q) = %q (%s), EvalSymlinks gives %q", p, r.Real, r.Code, want)
		}
	}
}

func TestCheckPermission(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root searches any directory; classify is tested in TestClassify")
	}
	tr := newTree(t)
	locked := filepath.Join(tr.proj, "locked")
	mkdir(t, filepath.Join(locked, "in"))
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(locked, 0o755) })
	for _, p := range []string{"locked/in/x", "locked/x", "locked/.."} {
		r := tr.g.Check(tr.proj, p)
		if p == "locked/.." {
			// The lookup of `..` needs no search of locked's content.
			if r.Code != "" {
				t.Errorf("Check(%q) = %s (%v), want inside", p, r.Code, r.Err)
			}
			continue
		}
		if r.Code != CodePermission {
			t.Errorf("Check(%q) = %q (%v), want %s", p, r.Code, r.Err, CodePermission)
		}
	}
}

func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		err  error
		code string
	}{
		{&fs.PathError{Op: "lstat", Path: "/x", Err: syscall.EACCES}, CodePermission},
		{&fs.PathError{Op: "lstat", Path: "/x", Err: syscall.EPERM}, CodePermission},
		{&fs.PathError{Op: "lstat", Path: "/x", Err: syscall.ENOTDIR}, CodeUnresolvable},
		{&fs.PathError{Op: "lstat", Path: "/x", Err: syscall.ENAMETOOLONG}, CodeUnresolvable},
		{errLoop, CodeLoop},
		{errDangling, CodeDangling},
	} {
		if got := classify(tc.err); got != tc.code {
			t.Errorf("classify(%v) = %q, want %q", tc.err, got, tc.code)
		}
	}
}

func TestHomeExpansionInsideRoot(t *testing.T) {
	tr := newTree(t)
	g, errs := New([]string{"~/work"}, Options{Home: tr.home})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if got, want := g.Roots(), []string{filepath.Join(tr.home, "work")}; !slices.Equal(got, want) {
		t.Fatalf("Roots() = %q, want %q", got, want)
	}
	for path, inside := range map[string]bool{
		"~/work/f":            true,
		"$HOME/work/a/b":      true,
		"${HOME}/work":        true,
		"~/work/../.bashrc":   false,
		"~/workx/f":           false,
		"~":                   false,
		"~/.ssh/id_ed25519":   false,
		"$HOMEX/work/f":       true, // not $HOME: a literal name under cwd
		"{home}/work/../work": true,
	} {
		r := g.Check(filepath.Join(tr.home, "work"), tr.expand(path))
		if r.Inside() != inside {
			t.Errorf("Check(%q) inside = %v (%s, real %q), want %v", path, r.Inside(), r.Code, r.Real, inside)
		}
	}
}

func TestNewRoots(t *testing.T) {
	tr := newTree(t)
	tests := []struct {
		name    string
		roots   []string
		want    []string // real roots kept
		refused int      // *RootError count
		failed  int      // other errors
	}{
		{name: "slash", roots: []string{"/"}, refused: 1},
		{name: "slash spelled oddly", roots: []string{"/etc/.."}, refused: 1},
		{name: "home", roots: []string{"{home}"}, refused: 1},
		{name: "tilde", roots: []string{"~"}, refused: 1},
		{name: "home via link", roots: []string{"{base}/homelink"}, refused: 1},
		{name: "home via dot dot", roots: []string{"{home}/work/.."}, refused: 1},
		{name: "holds home", roots: []string{"{base}"}, want: []string{"{base}"}},
		{name: "below home", roots: []string{"{home}/work"}, want: []string{"{home}/work"}},
		{name: "missing skipped", roots: []string{"{base}/nope", "{proj}"}, want: []string{"{proj}"}},
		{name: "dangling skipped", roots: []string{"{proj}/dangling"}},
		{name: "empty skipped", roots: []string{""}},
		{name: "a file", roots: []string{"{proj}/a.txt"}, failed: 1},
		{name: "loop", roots: []string{"{proj}/loop1"}, failed: 1},
		{name: "dedup and resolve", roots: []string{"{proj}", "{proj}/", "{proj}/up/proj", "{proj}/inlink", "{proj}/deep"},
			want: []string{"{proj}", "{proj}/sub", "{out}/d1/d2"}},
		{name: "mixed", roots: []string{"/", "{proj}", "{home}", "{tmp}"}, want: []string{"{proj}", "{tmp}"}, refused: 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var roots []string
			for _, r := range tc.roots {
				roots = append(roots, tr.expand(r))
			}
			g, errs := New(roots, Options{Home: tr.home})
			var want []string
			for _, w := range tc.want {
				want = append(want, tr.expand(w))
			}
			if got := g.Roots(); !slices.Equal(got, want) {
				t.Errorf("Roots() = %q, want %q", got, want)
			}
			refused, failed := 0, 0
			for _, err := range errs {
				var re *RootError
				if errors.As(err, &re) {
					refused++
				} else {
					failed++
				}
				if msg := err.Error(); msg != strings.ToLower(msg[:1])+msg[1:] || strings.HasSuffix(msg, ".") {
					t.Errorf("error %q: want lowercase, no trailing period", msg)
				}
			}
			if refused != tc.refused || failed != tc.failed {
				t.Errorf("errors %v: %d refused, %d failed; want %d, %d", errs, refused, failed, tc.refused, tc.failed)
			}
		})
	}
}

func TestDefaultRoots(t *testing.T) {
	tr := newTree(t)
	t.Setenv("TMPDIR", tr.tmp)
	roots := DefaultRoots(tr.proj)
	want := []string{tr.proj, tr.tmp}
	if runtime.GOOS != "windows" {
		want = append(want, "/tmp", "/var/tmp")
	}
	if !slices.Equal(roots, want) {
		t.Errorf("DefaultRoots = %q, want %q", roots, want)
	}

	// TMPDIR=/ must not open the whole disk.
	t.Setenv("TMPDIR", "/")
	g, errs := New(DefaultRoots(tr.proj), Options{Home: tr.home})
	var re *RootError
	if len(errs) != 1 || !errors.As(errs[0], &re) || re.Real != "/" {
		t.Errorf("TMPDIR=/: errors %v, want one refusal of /", errs)
	}
	if r := g.Check(tr.proj, "/etc/hosts"); r.Inside() {
		t.Errorf("TMPDIR=/: /etc/hosts is inside")
	}
	if r := g.Check(tr.proj, "a.txt"); !r.Inside() {
		t.Errorf("TMPDIR=/: project file is outside: %s", r.Code)
	}
}

// TestRootHoldingHome: a root that holds home (/tmp when HOME is below it)
// is kept, but home stays outside it; roots inside home still hold.
func TestRootHoldingHome(t *testing.T) {
	tr := newTree(t)
	g, errs := New([]string{tr.base, filepath.Join(tr.home, "work")}, Options{Home: tr.home})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for path, want := range map[string]string{
		"{proj}/a.txt":             tr.base,
		"{base}/new/file":          tr.base,
		"{home}/.bashrc":           "",
		"{home}":                   "",
		"~/.ssh/authorized_keys":   "",
		"{base}/homelink/.profile": "",
		"{proj}/notes.txt":         "",
		"{home}/work/f":            filepath.Join(tr.home, "work"),
		"~/work/../x":              "",
		"{home}/../proj/a.txt":     tr.base,
	} {
		r := g.Check(tr.proj, tr.expand(path))
		if r.Root != want || r.Inside() != (want != "") {
			t.Errorf("Check(%q) = root %q (%s), want %q", path, r.Root, r.Code, want)
		}
		if want == "" && r.Code == CodeOutside && r.Err == nil {
			t.Errorf("Check(%q): no error saying it is in home", path)
		}
	}
}

func TestResolve(t *testing.T) {
	tr := newTree(t)
	for path, want := range map[string]string{
		"{proj}/inlink/new/f":  "{proj}/sub/new/f",
		"{proj}/deep/../x":     "{out}/d1/x",
		"{proj}/link/passwd":   "{etc}/passwd",
		"{proj}/./a.txt/../..": "",
		"{proj}/dangling":      "",
		"relative":             "",
	} {
		got, err := Resolve(tr.expand(path))
		if want == "" {
			if err == nil {
				t.Errorf("Resolve(%q) = %q, want an error", path, got)
			}
			continue
		}
		if err != nil || got != tr.expand(want) {
			t.Errorf("Resolve(%q) = %q, %v; want %q", path, got, err, tr.expand(want))
		}
	}
}

// TestResolveSelf: /proc/self and /proc/thread-self name the process that
// opens the path, so they are kept as written rather than resolved to the
// checker's own pid; what lies below them is still resolved.
func TestResolveSelf(t *testing.T) {
	if _, err := os.Lstat("/proc/self/environ"); err != nil {
		if os.Getenv("CI") == "true" && runtime.GOOS == "linux" {
			t.Fatalf("no /proc on a Linux CI machine: %v", err)
		}
		t.Skip("no /proc/self")
	}
	for path, want := range map[string]string{
		"/proc/self/environ":         "/proc/self/environ",
		"/proc/thread-self/environ":  "/proc/thread-self/environ",
		"/proc/self/root/etc":        "/etc",
		"/proc/self/../self/environ": "/proc/self/environ",
	} {
		got, err := Resolve(path)
		if err != nil || got != want {
			t.Errorf("Resolve(%q) = %q, %v; want %q", path, got, err, want)
		}
	}
}

// TestCheckSelfCwd: /proc/self/cwd names the directory of the process
// that opens the path, the command's, not gatekeep's; a path below an
// open descriptor is not known.
func TestCheckSelfCwd(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("proc(5) is Linux's")
	}
	dir := t.TempDir()
	g := &Guard{}
	for path, want := range map[string]string{
		"/proc/self/cwd/x":           filepath.Join(dir, "x"),
		"/proc/thread-self/cwd/../y": filepath.Join(filepath.Dir(dir), "y"),
		"/proc/self/cwd":             dir,
		"/proc/self/cwdx":            "/proc/self/cwdx",
	} {
		if r := g.Check(dir, path); r.Abs != want {
			t.Errorf("Check(%q, %q).Abs = %q, want %q", dir, path, r.Abs, want)
		}
	}
	for _, path := range []string{"/proc/self/fd/3/id_rsa", "/dev/fd/3/x"} {
		if r := g.Check(dir, path); r.Code != CodeInvalid {
			t.Errorf("Check(%q): %+v, want %s", path, r, CodeInvalid)
		}
	}
}

func TestNilGuard(t *testing.T) {
	var g *Guard
	if r := g.Check("/", "/etc/hosts"); r.Inside() || r.Code != CodeOutside {
		t.Errorf("nil guard: %+v", r)
	}
	if g.Inside("/tmp") || g.Protected("/tmp/.git/config") != "" || g.Roots() != nil {
		t.Error("nil guard has roots")
	}
}

func TestProtected(t *testing.T) {
	tr := newTree(t)
	tests := []struct {
		path string
		want string // substring of the reason; "" means not protected
	}{
		{"a.txt", ""},
		{"src/main.go", ""},
		{"new/file.go", ""},
		{"sub", ""},
		{".gitignore", ""},
		{"src/config", ""},
		{"bashrc", ""},

		{".gatekeep", "gatekeep's own configuration"},
		{".gatekeep/config.toml", "gatekeep's own configuration"},
		{".gatekeep/config.local.toml", "gatekeep's own configuration"},
		{"sub/.gatekeep/config.local.toml", "gatekeep's own configuration"},
		{".GateKeep/config.toml", "gatekeep's own configuration"},
		{"cfg/gatekeep/config.toml", "gatekeep's configuration directory"},
		{"cfg/gatekeep", "gatekeep's configuration directory"},
		{"cfg", "would hold gatekeep's configuration directory"},
		{"cfgx", ""},

		{".git/config", "git config"},
		{".git/hooks", "git hooks"},
		{".git/hooks/pre-commit", "git hooks"},
		{"hooklink/pre-push", "git hooks"},
		{".GIT/Hooks/pre-commit", "git hooks"},
		{".git/modules/m/hooks/post-checkout", "git hooks"},
		{".git/modules/m/config", "git config"},
		{".git/worktrees/w/config.worktree", "git config"},
		{"sub/.git", "gitdir file"},
		{"other/.git/hooks/x", "git hooks"},
		{".git", "git directory"},
		{"vendor/lib/.git/config", "git config"},
		{".git/HEAD", "inside a git directory"},
		{".git/info/exclude", "inside a git directory"},
		{".git/info/attributes", "inside a git directory"},
		{".git/commondir", "inside a git directory"},
		{".git/objects/info/alternates", "inside a git directory"},
		{".git/packed-refs", "inside a git directory"},
		{".git/refs/heads/main", "inside a git directory"},
		{".git/worktrees/w/gitdir", "inside a git directory"},
		{".Git/new-file", "inside a git directory"},
		{".github/workflows/ci.yml", ""},
		{".gitignore2", ""},

		{".envrc", "direnv"},
		{"sub/.envrc", "direnv"},
		{".bashrc", "shell startup"},
		{"dotfiles/.zshrc", "shell startup"},
		{".profile", "shell startup"},
		{".zshenv", "shell startup"},
		{".bash_logout", "shell startup"},
		{"dotfiles/.gitconfig", "git configuration"},

		{"hl.txt", "2 hard links"},

		{".claude/settings.json", "agent's or editor's settings"},
		{".claude/settings.local.json", "agent's or editor's settings"},
		{"sub/.claude/settings.json", "agent's or editor's settings"},
		{".claude", "agent's or editor's settings"},
		{".claude/commands/x.md", "agent's or editor's settings"}, // prompts the agent follows
		{".claude/CLAUDE.md", ""},
		{".claude/hooks/pre-tool.sh", "agent's or editor's settings"},
		{".claude/hooks", "agent's or editor's settings"},
		{".codex/config.toml", "agent's or editor's settings"},
		{".codex/anything/else", "agent's or editor's settings"},
		{".gemini/settings.json", "agent's or editor's settings"},
		{".gemini/.env", "agent's or editor's settings"},
		{".gemini/GEMINI.md", ""},
		{".vscode/settings.json", "agent's or editor's settings"},
		{".vscode/tasks.json", "agent's or editor's settings"},
		{".VSCode/Tasks.json", "agent's or editor's settings"},
		{".vscode/extensions.json", ""},
		{".mcp.json", "agent's or editor's settings"},
		{".cursor/mcp.json", "agent's or editor's settings"},
		{"settings.json", ""},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			r := tr.g.Check(tr.proj, tc.path)
			if !r.Inside() {
				t.Fatalf("Check(%q) = %s (%v), want inside", tc.path, r.Code, r.Err)
			}
			got := tr.g.Protected(r.Real)
			if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
				t.Errorf("Protected(%q) = %q, want %q", r.Real, got, tc.want)
			}
			if got != "" && got != strings.ToLower(got[:1])+got[1:] {
				t.Errorf("reason %q is not lowercase", got)
			}
		})
	}
	// Outside every root: not the sandbox's protected business (denied).
	if got := tr.g.Protected(filepath.Join(tr.out, "hl.txt")); got != "" {
		t.Errorf("Protected(outside) = %q, want \"\"", got)
	}
	// A config dir reached through a symlink is still the config dir.
	symlink(t, "cfg", filepath.Join(tr.proj, "cfglink"))
	if r := tr.g.Check(tr.proj, "cfglink/gatekeep/config.toml"); tr.g.Protected(r.Real) == "" {
		t.Errorf("config dir through a link is not protected (real %q)", r.Real)
	}
}

// TestConfigDirThroughLink: config and state dirs given through symlinks
// (~/.config -> proj/cfg, ~/.local -> proj/local) are protected at their
// real locations, existing or not.
func TestConfigDirThroughLink(t *testing.T) {
	tr := newTree(t)
	symlink(t, filepath.Join(tr.proj, "cfg"), filepath.Join(tr.home, ".config"))
	symlink(t, filepath.Join(tr.proj, "local"), filepath.Join(tr.home, ".local")) // dangling until used
	g, errs := New([]string{tr.proj}, Options{Home: tr.home, ConfigDirs: defaultConfigDirsFor(t, tr.home)})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	for _, p := range []string{"cfg/gatekeep/config.toml", "local/state/gatekeep/trust.json"} {
		r := g.Check(tr.proj, p)
		if why := g.Protected(r.Real); !strings.Contains(why, "configuration directory") {
			t.Errorf("Protected(%q) = %q", r.Real, why)
		}
	}
	// The dirs are resolved when a write is first judged, not when the
	// Guard is made: ~/.cache made a link into the project after New.
	g, _ = New([]string{tr.proj}, Options{Home: tr.home, ConfigDirs: defaultConfigDirsFor(t, tr.home)})
	symlink(t, filepath.Join(tr.proj, "cache"), filepath.Join(tr.home, ".cache"))
	r := g.Check(tr.proj, "cache/gatekeep/config/x")
	if why := g.Protected(r.Real); !strings.Contains(why, "configuration directory") {
		t.Errorf("Protected(%q) = %q after the link appeared", r.Real, why)
	}
}

// defaultConfigDirsFor returns DefaultConfigDirs(home) with the XDG
// variables unset, after checking that they are honoured when set.
func defaultConfigDirsFor(t *testing.T, home string) []string {
	t.Setenv("XDG_CONFIG_HOME", "/xdg/config")
	t.Setenv("XDG_STATE_HOME", "relative/is/ignored")
	t.Setenv("XDG_CACHE_HOME", "/xdg/cache")
	if d := DefaultConfigDirs(home); d[0] != "/xdg/config/gatekeep" || d[1] != filepath.Join(home, ".local/state/gatekeep") || d[2] != "/xdg/cache/gatekeep" {
		t.Fatalf("with XDG variables: %q", d)
	}
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("XDG_STATE_HOME", "")
	t.Setenv("XDG_CACHE_HOME", "")
	dirs := DefaultConfigDirs(home)
	if dirs[0] != filepath.Join(home, ".config/gatekeep") || dirs[1] != filepath.Join(home, ".local/state/gatekeep") ||
		dirs[2] != filepath.Join(home, ".cache/gatekeep") {
		t.Fatalf("DefaultConfigDirs = %q", dirs)
	}
	return dirs
}

// FuzzCheck: Check never panics, and a path it calls inside really is:
// its Real, resolved again with filepath.EvalSymlinks (the nearest existing
// ancestor, the missing tail re-joined), is the same path and lies within
// Root. Where the whole path exists, Check agrees with EvalSymlinks.
func FuzzCheck(f *testing.F) {
	tr := newTree(f)
	for _, s := range []string{
		"a.txt", "link/passwd", "notes.txt", "../../x", "/etc/hosts", "new/deeper/file.txt",
		"dangling", "loop1/x", "deep/../x", "deep/../../../proj/a.txt", "new/../link/passwd",
		"~/x", "$HOME", "up/proj-evil", "inlink/../../proj/./sub//x/", "a.txt/..", "", "\x00",
		"up/up/up/up/../proj/hooklink/../config", "outdir/../proj/new/../../proj-evil",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, path string) {
		r := tr.g.Check(tr.proj, path)
		if r.Inside() {
			if r.Real != filepath.Clean(r.Real) || !filepath.IsAbs(r.Real) {
				t.Fatalf("Check(%q).Real = %q: not clean and absolute", path, r.Real)
			}
			again := reResolve(t, r.Real)
			if again != r.Real {
				t.Fatalf("Check(%q).Real = %q, but it resolves to %q", path, r.Real, again)
			}
			rel, err := filepath.Rel(r.Root, again)
			if err != nil || rel == ".." || strings.HasPrefix(rel, "../") || !slices.Contains(tr.g.Roots(), r.Root) {
				t.Fatalf("Check(%q) inside root %q, but the real path is %q", path, r.Root, again)
			}
		}
		if strings.ContainsAny(path, "~$\x00") || path == "" {
			return
		}
		raw := path
		if !filepath.IsAbs(raw) {
			raw = tr.proj + "/" + path
		}
		if want, err := filepath.EvalSymlinks(raw); err == nil && (r.Code != "" && r.Code != CodeOutside || r.Real != want) {
			t.Fatalf("Check(%q) = %q (%s, %v), EvalSymlinks gives %q", path, r.Real, r.Code, r.Err, want)
		}
	})
}

// reResolve resolves p with the standard library: EvalSymlinks of the
// nearest existing ancestor, the rest joined.
func reResolve(t *testing.T, p string) string {
	tail := ""
	for {
		if _, err := os.Lstat(p); err == nil {
			break
		}
		up := filepath.Dir(p)
		if up == p {
			break
		}
		tail = filepath.Join(filepath.Base(p), tail)
		p = up
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatalf("EvalSymlinks(%q): %v", p, err)
	}
	return filepath.Join(real, tail)
}

func BenchmarkCheckExisting(b *testing.B) {
	tr := newTree(b)
	mkdir(b, filepath.Join(tr.proj, "a/b/c/d"))
	write(b, filepath.Join(tr.proj, "a/b/c/d/file.go"), "x")
	for b.Loop() {
		if r := tr.g.Check(tr.proj, "a/b/c/d/file.go"); !r.Inside() {
			b.Fatal(r.Code)
		}
	}
}

func BenchmarkCheckMissingTail5(b *testing.B) {
	tr := newTree(b)
	for b.Loop() {
		if r := tr.g.Check(tr.proj, "n1/n2/n3/n4/n5"); !r.Inside() {
			b.Fatal(r.Code)
		}
	}
}

// TestProtectedGitDirShape: a directory shaped like a git directory
// (HEAD, objects/, refs/) is one to git, so writes that make or change
// one ask.
func TestProtectedGitDirShape(t *testing.T) {
	tr := newTree(t)
	for _, d := range []string{"bare/objects", "bare/refs", "half/objects", "shaped/objects/info", "shaped/refs/heads",
		"shaped/sub", "only/objects", "lnhead/objects", "lnhead/refs", "exe", "noexe", "wt", "evil/objects", "hd",
		"hd2/refs"} {
		mkdir(t, filepath.Join(tr.proj, d))
	}
	write(t, filepath.Join(tr.proj, "half/HEAD"), "ref: refs/heads/main\n")
	write(t, filepath.Join(tr.proj, "shaped/HEAD"), "ref: refs/heads/main\n")
	write(t, filepath.Join(tr.proj, "exe/HEAD"), "0123456789abcdef0123456789abcdef01234567\n")
	write(t, filepath.Join(tr.proj, "noexe/HEAD"), "ref: refs/heads/main\n")
	write(t, filepath.Join(tr.proj, "wt/HEAD"), "ref: refs/heads/x\n")
	write(t, filepath.Join(tr.proj, "wt/commondir"), "../evil\n")
	write(t, filepath.Join(tr.proj, "hd/HEAD"), "ref:\trefs/heads/x")
	write(t, filepath.Join(tr.proj, "hd2/HEAD"), "ref: refs/heads/x")
	symlink(t, "refs/heads/x", filepath.Join(tr.proj, "lnhead/HEAD")) // dangling: git takes it
	for _, f := range []string{"exe/objects", "exe/refs", "noexe/objects", "noexe/refs"} {
		write(t, filepath.Join(tr.proj, f), "")
	}
	for _, f := range []string{"exe/objects", "exe/refs"} {
		if err := os.Chmod(filepath.Join(tr.proj, f), 0o755); err != nil { // access(X_OK) passes
			t.Fatal(err)
		}
	}
	tests := []struct {
		path string
		want string
	}{
		{"bare/config", "holds objects and refs"},
		{"bare/HEAD", "holds objects and refs"},
		{"bare/head", "holds objects and refs"},
		{"bare/notes.txt", "holds objects and refs"}, // a common dir's hooks/ and info/ are read too
		{"half/refs", "both objects and refs"},
		{"half/refs/heads", "both objects and refs"}, // mkdir -p makes refs on the way
		{"half/x", ""},
		{"shaped/config", "may take for a git directory"},
		{"shaped/objects/info/alternates", "may take for a git directory"},
		{"shaped/hooks/pre-commit", "may take for a git directory"},
		{"shaped/sub/deep/file", "may take for a git directory"},
		{"only/config", ""},
		{"only/HEAD", ""},
		{"only/refs", "both objects and refs"},
		{"only/refs/heads/main", "both objects and refs"},
		{"src/config", ""},
		{"lnhead/config", "may take for a git directory"},
		{"exe/config", "may take for a git directory"},
		{"noexe/config", ""}, // objects and refs fail access(X_OK): not a git directory
		{"noexe/objects", ""},
		{"wt/config", ""}, // its common dir ../evil has no refs yet
		{"evil/refs", "both objects and refs"},
		{"evil/refs/heads", "both objects and refs"},
		{"wt/commondir", "commondir"},
		{"newdir/commondir", "commondir"},
		{"hd/objects", ""},
		{"hd2/objects", "both objects and refs"},
		{"hd2/objects/x/y", "both objects and refs"},
	}
	for _, tc := range tests {
		r := tr.g.Check(tr.proj, tc.path)
		if !r.Inside() {
			t.Fatalf("Check(%q) = %s (%v), want inside", tc.path, r.Code, r.Err)
		}
		got := tr.g.Protected(r.Real)
		if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("Protected(%q) = %q, want %q", tc.path, got, tc.want)
		}
	}
}

// TestGitShapeReason: a call that builds the whole shape at once is judged
// with all its writes.
func TestGitShapeReason(t *testing.T) {
	tr := newTree(t)
	mkdir(t, filepath.Join(tr.proj, "d"))
	p := func(s string) string { return filepath.Join(tr.proj, s) }
	tests := []struct {
		real   string
		others []string
		want   string
	}{
		{p("d/objects"), []string{p("d/refs"), p("d/HEAD")}, "both objects and refs"},
		{p("d/HEAD"), []string{p("d/objects"), p("d/refs/heads")}, "would make"},
		{p("d/HEAD"), []string{p("d/objects")}, ""},
		{p("d/HEAD"), []string{p("d/commondir")}, "HEAD and a commondir"},
		{p("d/config"), []string{p("d/objects")}, ""},
		{p("d/HEAD"), nil, ""},
		{p("d/HEAD/x"), []string{p("d/objects"), p("d/refs")}, ""}, // HEAD made a directory: not a HEAD
	}
	for _, tc := range tests {
		got := tr.g.GitShapeReason(tc.real, tc.others)
		if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("GitShapeReason(%q, %q) = %q, want %q", tc.real, tc.others, got, tc.want)
		}
	}
}

// TestLookPath: a bare name is searched through PATH like execvp; an
// entry that is relative, empty, or inside a root makes the search unsafe
// when it is reached, found there or not.
func TestLookPath(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Unix PATH search")
	}
	tr := newTree(t)
	sys := filepath.Join(tr.out, "sysbin")
	mkdir(t, sys)
	mkdir(t, filepath.Join(tr.proj, "bin"))
	for _, f := range []string{filepath.Join(sys, "ls"), filepath.Join(tr.proj, "bin", "ls"), filepath.Join(sys, "noexec")} {
		write(t, f, "#!/bin/sh\n")
	}
	for _, f := range []string{filepath.Join(sys, "ls"), filepath.Join(tr.proj, "bin", "ls")} {
		if err := os.Chmod(f, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	projBin := filepath.Join(tr.proj, "bin")
	symlink(t, sys, filepath.Join(tr.out, "syslink"))
	symlink(t, projBin, filepath.Join(tr.out, "projlink"))
	symlink(t, filepath.Join(tr.out, "nothing"), filepath.Join(tr.out, "dangling"))
	mkdir(t, filepath.Join(tr.out, "lnbin"))
	symlink(t, filepath.Join(sys, "ls"), filepath.Join(tr.out, "lnbin", "ls"))
	for _, tc := range []struct {
		name    string
		entries []string
		want    string // a path, or an error: "unsafe", "notfound"
	}{
		{"ls", []string{sys}, filepath.Join(sys, "ls")},
		{"ls", []string{sys, "."}, filepath.Join(sys, "ls")},
		{"ls", []string{".", sys}, "unsafe"},
		{"ls", []string{"", sys}, "unsafe"},
		{"ls", []string{"bin", sys}, "unsafe"},
		{"ls", []string{projBin, sys}, "unsafe"},
		{"ls", []string{filepath.Join(tr.proj, "nobin"), sys}, "unsafe"}, // missing, but the agent can make it
		{"ls", []string{filepath.Join(tr.out, "missing"), sys}, filepath.Join(sys, "ls")},
		{"cat", []string{sys}, "notfound"},
		{"cat", []string{sys, "."}, "unsafe"}, // not found before reaching .
		{"noexec", []string{sys}, "notfound"},
		// Links: an entry through a linked dir, a linked name (its
		// target's real path), a link into the project, a dangling one.
		{"ls", []string{filepath.Join(tr.out, "syslink")}, filepath.Join(sys, "ls")},
		{"ls", []string{filepath.Join(tr.out, "lnbin")}, filepath.Join(sys, "ls")},
		{"ls", []string{filepath.Join(tr.out, "projlink"), sys}, "unsafe"},
		{"ls", []string{filepath.Join(tr.out, "dangling", "bin"), sys}, "unsafe"},
		{"ls", []string{filepath.Join(tr.out, "d1", "..", "projlink"), sys}, "unsafe"},
		{"ls", []string{filepath.Join(tr.out, "d1", "d2"), filepath.Join(tr.out, "d1", "..", "sysbin")}, filepath.Join(sys, "ls")},
	} {
		got, err := tr.g.LookPath(tc.name, tc.entries)
		switch tc.want {
		case "unsafe":
			if !errors.Is(err, ErrUnsafePath) {
				t.Errorf("LookPath(%s, %q) = %q, %v; want ErrUnsafePath", tc.name, tc.entries, got, err)
			}
		case "notfound":
			if !errors.Is(err, ErrNotFound) {
				t.Errorf("LookPath(%s, %q) = %q, %v; want ErrNotFound", tc.name, tc.entries, got, err)
			}
		default:
			if err != nil || got != tc.want {
				t.Errorf("LookPath(%s, %q) = %q, %v; want %q", tc.name, tc.entries, got, err, tc.want)
			}
		}
	}
}

// TestDirMemo: LookPath's shared resolution of PATH entries gives what
// realPath gives, for plain dirs, links at any depth, `..` after a link,
// missing and dangling entries, a file where a dir should be, in any
// order of the entries.
func TestDirMemo(t *testing.T) {
	tr := newTree(t)
	o := tr.out
	symlink(t, filepath.Join(o, "d1"), filepath.Join(o, "l1"))
	symlink(t, "d1/d2", filepath.Join(o, "l2"))
	symlink(t, filepath.Join(o, "nothing"), filepath.Join(o, "dangling"))
	symlink(t, filepath.Join(o, "l1"), filepath.Join(o, "d1", "d2", "up"))
	paths := []string{
		o, filepath.Join(o, "d1"), filepath.Join(o, "d1", "d2"), filepath.Join(o, "l1"),
		filepath.Join(o, "l1", "d2"), filepath.Join(o, "l2"), filepath.Join(o, "l2", "up", "d2"),
		filepath.Join(o, "l2") + "/../d1", filepath.Join(o, "d1") + "//d2/", filepath.Join(o, "missing", "bin"),
		filepath.Join(o, "dangling"), filepath.Join(o, "dangling", "bin"), filepath.Join(o, "hl.txt", "bin"),
		filepath.Join(o, "hl.txt"), "/", "/proc/self/cwd",
	}
	reversed := slices.Clone(paths)
	slices.Reverse(reversed)
	for _, order := range [][]string{paths, reversed} {
		m := dirMemo{}
		for _, p := range order {
			want, werr := realPath(p)
			got, err := m.realPath(p)
			if got != want || (err == nil) != (werr == nil) || (werr != nil && err.Error() != werr.Error()) {
				t.Errorf("dirMemo.realPath(%q) = %q, %v; realPath = %q, %v", p, got, err, want, werr)
			}
		}
	}
}

// TestRefuseFallbackRoot: a root only guessed from the working directory
// is refused in a hidden directory of home or /root and in /etc, /usr,
// /boot, /var (but their temp dirs); elsewhere it may be one.
func TestRefuseFallbackRoot(t *testing.T) {
	home, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(home, ".ssh"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(home, ".ssh"), filepath.Join(home, "keys")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		dir    string
		refuse bool
	}{
		{filepath.Join(home, ".ssh"), true},
		{filepath.Join(home, ".config", "git"), true},
		{filepath.Join(home, "keys"), true}, // a link into ~/.ssh
		{filepath.Join(home, "src", ".hidden", "x"), true},
		{"/root/.ssh", true},
		{"/etc", true},
		{"/etc/ssh", true},
		{"/usr/local/bin", true},
		{"/boot", true},
		{"/var/lib/x", true},
		{"/var/tmp/x", false},
		{filepath.Join(home, "src", "proj"), false},
		{home, false}, // New refuses home itself for every root
		{"/srv/www", false},
		{"/etcetera", false},
	} {
		if why := RefuseFallbackRoot(tc.dir, home); (why != "") != tc.refuse {
			t.Errorf("RefuseFallbackRoot(%s) = %q, want refused %v", tc.dir, why, tc.refuse)
		}
	}
}

// TestHooksPathProtected: the directory core.hooksPath names in the
// repository's config (or the global one) is protected like .git/hooks;
// agents' prompt and code directories are protected.
func TestHooksPathProtected(t *testing.T) {
	base := realTempDir(t)
	root, home := filepath.Join(base, "proj"), filepath.Join(base, "home")
	for _, d := range []string{filepath.Join(root, ".git"), filepath.Join(root, ".husky"), filepath.Join(root, "sub", ".git"), home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("XDG_CONFIG_HOME", "")
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(root, ".git", "config"), "[core]\n\tbare = false\n[Core]\n\tHooksPath = \".husky\" ; comment\n")
	write(filepath.Join(home, ".gitconfig"), "[core]\n\thooksPath = ~/githooks\n")
	g, errs := New([]string{root}, Options{Home: home, ConfigDirs: []string{}})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	checkProtected(t, g, root, []protectCase{
		{".husky/pre-commit", true},
		{".husky", true},
		{"husky/pre-commit", false},
		{"src/main.go", false},
		{"sub/x/pre-commit", false}, // sub is its own repository, global hooksPath outside the root
		{".claude/commands/x.md", true},
		{".claude/agents/a.md", true},
		{".claude/skills/s/SKILL.md", true},
		{".gemini/extensions/e/gemini-extension.json", true},
		{".gemini/skills/deploy/SKILL.md", true},
		{".gemini/agents/reviewer.md", true},
		{".agents/skills/deploy/scripts/run.sh", true},
		{".agents/notes.md", false},
		{".gemini/commands/c.toml", true},
		{".claude/notes.md", false},
	})
	// The same Guard reads the config again once a file changes: the
	// repository's, then the global one (the repository's gone).
	write(filepath.Join(root, ".git", "config"), "[core]\n\thooksPath = other\n")
	if why := g.Protected(filepath.Join(root, ".husky/pre-commit")); why != "" {
		t.Errorf("after the config moved hooksPath to other: .husky still protected: %s", why)
	}
	if why := g.Protected(filepath.Join(root, "other/pre-commit")); why == "" {
		t.Errorf("after the config moved hooksPath to other: other/pre-commit not protected")
	}
	// Hook managers: husky's .husky/_ runs the scripts in .husky; the
	// pre-commit and lefthook configs hold the commands their hooks run.
	write(filepath.Join(root, ".git", "config"), "[core]\n\thooksPath = .husky/_\n")
	for _, tc := range []struct {
		path    string
		protect bool
	}{
		{".husky/_/pre-commit", true},
		{".husky/pre-commit", true},
		{".pre-commit-config.yaml", true},
		{"lefthook.yml", true},
		{".lefthook-local.yaml", true},
		{"docs/lefthook.yml", false},
	} {
		if why := g.Protected(filepath.Join(root, tc.path)); (why != "") != tc.protect {
			t.Errorf("hooksPath .husky/_: Protected(%s) = %q, want protected %v", tc.path, why, tc.protect)
		}
	}
	if got, want := g.HooksDirs(root), []string{filepath.Join(root, ".husky", "_"), filepath.Join(root, ".husky")}; !slices.Equal(got, want) {
		t.Errorf("HooksDirs = %q, want %q", got, want)
	}
	write(filepath.Join(root, ".git", "config"), "[core]\n\thooksPath = other\n")
	if err := os.Remove(filepath.Join(root, ".git", "config")); err != nil {
		t.Fatal(err)
	}
	write(filepath.Join(home, ".gitconfig"), "[core]\n\thooksPath = global-hooks\n")
	if why := g.Protected(filepath.Join(root, "global-hooks/pre-commit")); why == "" {
		t.Errorf("a relative global hooksPath, read again after the change: global-hooks/pre-commit not protected")
	}
	if why := g.Protected(filepath.Join(root, "other/pre-commit")); why != "" {
		t.Errorf("the repository config removed: other/pre-commit still protected: %s", why)
	}
	// git hands hooksPath to the kernel: through a dangling link the hooks
	// are where its target will be created, and `..` after a link leaves
	// the link's target (red team 2, F1 and F4).
	if err := os.MkdirAll(filepath.Join(root, "deep", "dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	symlink(t, "nowhere", filepath.Join(root, "dl"))
	symlink(t, "deep/dir", filepath.Join(root, "sl"))
	for _, tc := range []struct {
		hooksPath, path string
		protect         bool
	}{
		{"dl/hooks", "nowhere/hooks/pre-commit", true},
		{"sl/../h", "deep/h/pre-commit", true},
		{"sl/../h", "h/pre-commit", false},
	} {
		write(filepath.Join(root, ".git", "config"), "[core]\n\thooksPath = "+tc.hooksPath+"\n")
		if why := g.Protected(filepath.Join(root, tc.path)); (why != "") != tc.protect {
			t.Errorf("hooksPath %s: Protected(%s) = %q, want protected %v", tc.hooksPath, tc.path, why, tc.protect)
		}
	}
	for _, tc := range []struct{ in, want string }{
		{`"a b"`, "a b"}, {`x # c`, "x"}, {`"x;y" ; c`, "x;y"}, {`a\"b`, `a"b`},
	} {
		if got := gitConfigValue(tc.in); got != tc.want {
			t.Errorf("gitConfigValue(%s) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestHomeLinksProtected: with a dotfiles repository as the project, the
// home directory's startup files, git config and agent settings that link
// into it are protected at their real location, which by name is an
// ordinary project file (red team 2, F7).
func TestHomeLinksProtected(t *testing.T) {
	base := realTempDir(t)
	home := filepath.Join(base, "home")
	root := filepath.Join(home, "dotfiles")
	for _, d := range []string{filepath.Join(root, ".git"), filepath.Join(root, "claude"), filepath.Join(home, ".config", "git")} {
		mkdir(t, d)
	}
	t.Setenv("XDG_CONFIG_HOME", "")
	write(t, filepath.Join(root, "bashrc"), "# rc\n")
	write(t, filepath.Join(root, "gitconfig"), "[user]\n")
	symlink(t, filepath.Join(root, "bashrc"), filepath.Join(home, ".bashrc"))
	symlink(t, "../../dotfiles/gitconfig", filepath.Join(home, ".config", "git", "config"))
	symlink(t, "dotfiles/claude", filepath.Join(home, ".claude"))
	symlink(t, "dotfiles/zshrc-not-yet", filepath.Join(home, ".zshrc")) // dangling: created by the write
	g, errs := New([]string{root}, Options{Home: home, ConfigDirs: []string{}})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	checkProtected(t, g, root, []protectCase{
		{"bashrc", true},
		{"gitconfig", true},
		{"claude/settings.json", true},
		{"zshrc-not-yet", true},
		{"vimrc", false},
		{"README.md", false},
	})
}

// TestGitIncludesProtected: a file the repository's git config includes
// (include.path, includeIf.*.path, and their own includes) is git config:
// core.fsmonitor written there runs on the next `git status` (red team 2,
// F5).
func TestGitIncludesProtected(t *testing.T) {
	base := realTempDir(t)
	root, home := filepath.Join(base, "proj"), filepath.Join(base, "home")
	mkdir(t, filepath.Join(root, ".git"))
	mkdir(t, home)
	t.Setenv("XDG_CONFIG_HOME", "")
	write(t, filepath.Join(root, ".git", "config"), "[core]\n\tbare = false\n[include]\n\tpath = ../shared.cfg\n[includeIf \"gitdir:/elsewhere/\"]\n\tPath = \"../cond.cfg\"\n")
	write(t, filepath.Join(root, "shared.cfg"), "[include]\n\tpath = sub/nested.cfg\n")
	g, errs := New([]string{root}, Options{Home: home, ConfigDirs: []string{}})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	checkProtected(t, g, root, []protectCase{
		{"shared.cfg", true},
		{"cond.cfg", true},       // not there yet: writing it creates it
		{"sub/nested.cfg", true}, // included by an included file
		{"other.cfg", false},
		{"sub/other.cfg", false},
	})
}

// realTempDir is t.TempDir() resolved (/tmp may be a link, as on macOS).
func realTempDir(t *testing.T) string {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return base
}

// protectCase is a path below a root and whether Protected guards it.
type protectCase struct {
	path    string
	protect bool
}

// checkProtected fails for each case whose path below root Protected
// judges otherwise.
func checkProtected(t *testing.T, g *Guard, root string, cases []protectCase) {
	t.Helper()
	for _, tc := range cases {
		if why := g.Protected(filepath.Join(root, tc.path)); (why != "") != tc.protect {
			t.Errorf("Protected(%s) = %q, want protected %v", tc.path, why, tc.protect)
		}
	}
}

// TestConfigDirPathThroughLink: a config dir named through a symlink
// (XDG_CONFIG_HOME=ROOT/p/c, c a link to ROOT/t) resolves to ROOT/t/gatekeep;
// the directories its path passes through before the link (ROOT/p) are
// protected too: `mv p q` would leave XDG_CONFIG_HOME naming nothing, and
// the user's config (its deny rules) would be gone from the next call on,
// or a p the agent made would hold a config it wrote.
func TestConfigDirPathThroughLink(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Unix symlinks")
	}
	root := realTempDir(t)
	for _, d := range []string{"p", "t/gatekeep", "q"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(root, "t"), filepath.Join(root, "p", "c")); err != nil {
		t.Fatal(err)
	}
	g, errs := New([]string{root}, Options{Home: filepath.Join(root, "home"), ConfigDirs: []string{filepath.Join(root, "p", "c", "gatekeep")}})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	checkProtected(t, g, root, []protectCase{
		{"p", true}, // the directory holding the link
		{"t", true}, // above the real dir
		{"t/gatekeep/x", true},
		{"p/other", false},
		{"q", false},
		{"q/p", false},
	})
}
