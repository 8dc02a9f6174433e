package cmdmodel

import (
	"net/url"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// This file holds where the network tools connect as their command lines
// and their own configuration name it: the options of curl, wget, git
// clone|fetch|pull, pip install|download and npm install (which take a
// value, which name a URL, which send or upload), the default registries,
// and the environment variables and config files that move a registry.
// The sandbox admits a confined network command without asking only when
// every destination found here is on its allowed hosts; reading the
// config files and matching the hosts is policy's business.

// Destination is a host and port a command connects to.
type Destination struct {
	Host string
	Port int
}

// NetworkEnv is what a network tool's destinations depend on outside its
// command line.
type NetworkEnv struct {
	// Getenv reads the environment the command inherits.
	Getenv func(string) string
	// Home is the user's home directory ("" when not known).
	Home string
	// Dirs returns the directories the command may run in, absolute ("" for
	// one only known at run time); called only by tools that read a config
	// file found from there.
	Dirs func() []string
}

// Destinations is where a network command connects as far as its text and
// its environment show.
type Destinations struct {
	// Hosts are the places it connects to.
	Hosts []Destination
	// Configs are the INI-style config files (pip.conf, npmrc) the tool
	// reads: Hosts hold only when each is missing, or is a regular file
	// that sets no key Moves reports.
	Configs []string
	// Moves reports a config key (in lower case) that adds or moves a
	// destination.
	Moves func(key string) bool
}

// NetworkDestinations reports where the network command words (static
// text, from the program's name on, no assignment or wrapper before it)
// connects: a package manager's registry (the default one only when no
// configuration can move it), `git clone|fetch|pull` of a literal
// http(s) URL, curl and wget of literal URLs without an upload form. ok
// is false for anything else, and for anything pushing (git push, npm
// publish, curl -d/-F/-T).
func NetworkDestinations(words []string, env NetworkEnv) (d Destinations, ok bool) {
	if len(words) == 0 {
		return d, false
	}
	args := words[1:]
	switch words[0] {
	case "curl":
		d.Hosts, ok = curlDestinations(args)
	case "wget":
		d.Hosts, ok = wgetDestinations(args)
	case "git":
		d.Hosts, ok = gitDestinations(args)
	case "pip", "pip3":
		d.Hosts, ok = pipDestinations(args, env)
		d.Configs, d.Moves = pipConfigFiles(env), PipMoves
	case "npm":
		if env.Dirs == nil {
			return Destinations{}, false
		}
		var dirs []string
		for _, dir := range env.Dirs() {
			if dir == "" {
				return Destinations{}, false
			}
			dirs = append(dirs, dir)
		}
		d.Hosts, ok = npmDestinations(args, env)
		d.Configs, d.Moves = npmConfigFiles(dirs, env), NpmMoves
	}
	if !ok {
		return Destinations{}, false
	}
	return d, true
}

// urlDestination is where a literal http or https URL leads (a missing
// scheme is http, as curl and wget take it). A URL with userinfo, a
// glob range or brace set (curl expands them) or another scheme is not
// known.
func urlDestination(raw string, schemeless bool) (Destination, bool) {
	if strings.ContainsAny(raw, "{}[] \t\n\\") || strings.Contains(raw, "@") {
		return Destination{}, false
	}
	if !strings.Contains(raw, "://") {
		if !schemeless {
			return Destination{}, false
		}
		raw = "http://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil || u.User != nil || u.Opaque != "" {
		return Destination{}, false
	}
	port := 0
	switch strings.ToLower(u.Scheme) {
	case "http":
		port = 80
	case "https":
		port = 443
	default:
		return Destination{}, false
	}
	host := u.Hostname()
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return Destination{}, false
		}
		port = n
	}
	if host == "" {
		return Destination{}, false
	}
	return Destination{Host: strings.ToLower(host), Port: port}, true
}

// optSpec is how a tool's options read for destination reasoning: flags
// take no value, args take one (the next word, `--name=value`, or the
// rest of a short option's word). url options name a URL. Any option
// not listed makes the line unknown.
type optSpec struct {
	flags, args, urls string
	// model names the program whose command-model spec says which of
	// allowed take a value (the one description of its options); flags
	// and args are then empty.
	model, allowed string
	// noFile are options of args whose value may not start with "@":
	// the tool would read that file and send it (curl -H @file).
	noFile string
}

// readOpts reads args by spec: the operands, and the values of the url
// options. ok is false for an option the spec does not list or a value
// missing.
func readOpts(spec optSpec, args []string) (operands, urls []string, ok bool) {
	noFile := strings.Fields(spec.noFile)
	valueOK := func(name, v string) bool {
		return !strings.HasPrefix(v, "@") || !slices.Contains(noFile, name)
	}
	kind := map[string]byte{}
	if spec.model != "" {
		m, ok := LookupSpec(spec.model, false)
		if !ok {
			return nil, nil, false
		}
		for _, n := range strings.Fields(spec.allowed) {
			kind[n] = 'f'
			if k, known := m.opts[strings.TrimLeft(n, "-")]; known && k != flag && k != optional {
				kind[n] = 'a'
			}
		}
	}
	for _, g := range []struct {
		names string
		k     byte
	}{{spec.flags, 'f'}, {spec.args, 'a'}, {spec.urls, 'u'}} {
		for _, n := range strings.Fields(g.names) {
			kind[n] = g.k
		}
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return append(operands, args[i+1:]...), urls, true
		case !strings.HasPrefix(a, "-") || a == "-":
			operands = append(operands, a)
		case strings.HasPrefix(a, "--"):
			name, value, has := strings.Cut(a, "=")
			k := kind[name]
			switch {
			case k == 0, k == 'f' && has:
				return nil, nil, false
			case k != 'f' && !has:
				if i+1 >= len(args) {
					return nil, nil, false
				}
				i++
				value = args[i]
			}
			if k == 'u' {
				urls = append(urls, value)
			}
			if !valueOK(name, value) {
				return nil, nil, false
			}
		default:
			for j := 1; j < len(a); j++ {
				name := "-" + a[j:j+1]
				k := kind[name]
				if k == 0 {
					return nil, nil, false
				}
				if k == 'f' {
					continue
				}
				value := a[j+1:]
				if value == "" {
					if i+1 >= len(args) {
						return nil, nil, false
					}
					i++
					value = args[i]
				}
				if k == 'u' {
					urls = append(urls, value)
				}
				if !valueOK(name, value) {
					return nil, nil, false
				}
				break
			}
		}
	}
	return operands, urls, true
}

// curlOpts are the curl options (curl 7.88 `--help all`) that neither
// send data (-d, -F, -T, --json, -X other than GET and HEAD), nor read
// a config of more URLs (-K), nor choose where to connect (-x,
// --connect-to, --resolve, --unix-socket): a line with any other option
// is not known.
var curlOpts = optSpec{model: "curl",
	allowed: "-s --silent -S --show-error -L --location -f --fail --fail-with-body -I --head -i --include -v --verbose " +
		"-# --progress-bar -O --remote-name --remote-name-all -J --remote-header-name -g --globoff --compressed " +
		"-4 --ipv4 -6 --ipv6 --http1.1 --http2 --create-dirs -k --insecure -N --no-buffer --no-progress-meter " +
		"-R --remote-time -G --get --tlsv1.2 --tlsv1.3 --ssl-reqd --no-keepalive -q --disable " +
		"-o --output --output-dir -H --header -A --user-agent -e --referer -m --max-time --connect-timeout " +
		"--retry --retry-delay --retry-max-time -w --write-out -r --range -C --continue-at --cacert --capath " +
		"--max-redirs --max-filesize -z --time-cond -D --dump-header --limit-rate --stderr --trace --trace-ascii",
	urls:   "--url",
	noFile: "-H --header",
}

func curlDestinations(args []string) ([]Destination, bool) {
	// -X/--request is read apart: only GET and HEAD send nothing.
	var rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		var method string
		switch {
		case a == "-X" || a == "--request":
			if i+1 >= len(args) {
				return nil, false
			}
			i++
			method = args[i]
		case strings.HasPrefix(a, "--request="):
			method = strings.TrimPrefix(a, "--request=")
		case strings.HasPrefix(a, "-X") && !strings.HasPrefix(a, "--"):
			method = a[2:]
		default:
			rest = append(rest, a)
			continue
		}
		if method != "GET" && method != "HEAD" {
			return nil, false
		}
	}
	ops, urls, ok := readOpts(curlOpts, rest)
	if !ok {
		return nil, false
	}
	return literalURLs(append(urls, ops...), true)
}

// wgetOpts are the wget options (GNU Wget 1.21) that send nothing
// (--post-data, --post-file, --body-data, --method), read no list of
// URLs (-i, -B) or commands (-e), and follow no links (-r, -p, -m).
var wgetOpts = optSpec{model: "wget",
	allowed: "-q --quiet -v --verbose -nv --no-verbose -c --continue -N --timestamping -S --server-response " +
		"--spider -nc --no-clobber --no-check-certificate -4 --inet4-only -6 --inet6-only --content-disposition " +
		"-nd --no-directories -x --force-directories --show-progress --no-cache " +
		"-O --output-document -P --directory-prefix -o --output-file -a --append-output -t --tries " +
		"-T --timeout -w --wait -U --user-agent --header --ca-certificate --max-redirect -Q --quota --limit-rate",
}

func wgetDestinations(args []string) ([]Destination, bool) {
	ops, _, ok := readOpts(wgetOpts, args)
	if !ok {
		return nil, false
	}
	return literalURLs(ops, true)
}

func literalURLs(urls []string, schemeless bool) ([]Destination, bool) {
	if len(urls) == 0 {
		return nil, false
	}
	var out []Destination
	for _, u := range urls {
		d, ok := urlDestination(u, schemeless)
		if !ok {
			return nil, false
		}
		out = append(out, d)
	}
	return out, true
}

// gitCloneOpts are the options of git clone, fetch and pull (git 2.39)
// that fetch from nowhere else: no --recurse-submodules (their URLs are
// only known from the repository), no --upload-pack or -u (runs a
// program), no --config or -c (sets http.proxy and the like), no
// --reference or --template.
var gitCloneOpts = optSpec{
	flags: "-q --quiet -v --verbose --progress --no-checkout -n --bare --mirror --single-branch --no-single-branch " +
		"--no-tags --tags -t --shallow-submodules --no-shallow-submodules --sparse --rebase -r --no-rebase --ff-only " +
		"--ff --no-ff --prune -p --unshallow --update-shallow --all --no-recurse-submodules --autostash --no-autostash " +
		"--set-upstream --dry-run --force -f --keep -k --append -a --no-edit --stat --no-stat --squash --no-squash " +
		"--commit --no-commit --verify --no-verify --verify-signatures --no-verify-signatures --signoff --no-signoff",
	args: "--depth --branch -b --origin -o --filter --shallow-since --shallow-exclude --deepen -j --jobs " +
		"--strategy -s -X --strategy-option --separate-git-dir",
}

func gitDestinations(args []string) ([]Destination, bool) {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		// Git's global options (-c, -C, --git-dir) can move the repository
		// or set its proxy and transport: not known.
		return nil, false
	}
	sub := args[0]
	if sub != "clone" && sub != "fetch" && sub != "pull" {
		return nil, false
	}
	ops, _, ok := readOpts(gitCloneOpts, args[1:])
	if !ok || len(ops) == 0 {
		return nil, false
	}
	// The first operand is the repository: a literal http(s) URL. A
	// remote's name (origin) leads where the repository's config says.
	d, ok := urlDestination(ops[0], false)
	if !ok {
		return nil, false
	}
	if sub == "clone" && len(ops) > 2 || sub != "clone" && slices.ContainsFunc(ops[1:], func(r string) bool { return strings.Contains(r, "://") }) {
		return nil, false
	}
	return []Destination{d}, true
}

// pipOpts are the options of pip install and download (pip 23) that
// fetch from no place the text does not name: no -r or -c (a file of
// requirements may name other indexes), no --proxy, no --trusted-host.
var pipOpts = optSpec{
	flags: "-q --quiet -v --verbose -U --upgrade --user --no-deps --pre --no-cache-dir --no-index --require-hashes " +
		"--disable-pip-version-check --no-build-isolation --break-system-packages --dry-run --force-reinstall " +
		"-I --ignore-installed --no-color --no-input --no-warn-script-location --prefer-binary --isolated",
	args: "-d --dest -t --target --prefix --root --no-binary --only-binary --cert --platform --python-version " +
		"--implementation --abi --progress-bar --timeout --retries --upgrade-strategy -e --editable --src --report",
	urls: "-i --index-url --extra-index-url -f --find-links",
}

// pipDefaultIndex are the hosts of pip's default index (pypi.org) and
// of the files it links to.
var pipDefaultIndex = []Destination{{"pypi.org", 443}, {"files.pythonhosted.org", 443}}

func pipDestinations(args []string, env NetworkEnv) ([]Destination, bool) {
	if len(args) == 0 || args[0] != "install" && args[0] != "download" {
		return nil, false
	}
	ops, urls, ok := readOpts(pipOpts, args[1:])
	if !ok {
		return nil, false
	}
	// An editable requirement may be a VCS URL (-e git+https://host/x).
	for i, a := range args {
		v, isE := "", false
		switch {
		case a == "-e" || a == "--editable":
			if i+1 < len(args) {
				v, isE = args[i+1], true
			}
		case strings.HasPrefix(a, "--editable="):
			v, isE = strings.TrimPrefix(a, "--editable="), true
		case strings.HasPrefix(a, "-e") && !strings.HasPrefix(a, "--"):
			v, isE = a[2:], true
		}
		if isE && (strings.Contains(v, "://") || strings.Contains(v, "@") || strings.Contains(v, "+")) {
			return nil, false
		}
	}
	for _, v := range []string{"PIP_CONFIG_FILE", "PIP_PROXY", "PIP_TRUSTED_HOST"} {
		if env.Getenv(v) != "" {
			return nil, false
		}
	}
	// PIP_<OPTION> variables hold what the option would (several values
	// space-separated); the line's own -i wins over PIP_INDEX_URL.
	envIndex := env.Getenv("PIP_INDEX_URL")
	for _, v := range []string{"PIP_EXTRA_INDEX_URL", "PIP_FIND_LINKS"} {
		urls = append(urls, strings.Fields(env.Getenv(v))...)
	}
	// pip's config files (pip.conf: site, user, global) can add indexes
	// (extra-index-url) that no option on the line takes away: the caller
	// reads them (pipConfigFiles, PipMoves).
	var dests []Destination
	noIndex := slices.Contains(args, "--no-index")
	hasIndex := false
	for _, a := range args {
		if a == "-i" || a == "--index-url" || strings.HasPrefix(a, "--index-url=") || strings.HasPrefix(a, "-i") && !strings.HasPrefix(a, "--") {
			hasIndex = true
		}
	}
	for _, u := range urls {
		if !strings.Contains(u, "://") {
			continue // a find-links directory
		}
		d, ok := urlDestination(u, false)
		if !ok {
			return nil, false
		}
		dests = append(dests, d)
	}
	for _, o := range ops {
		// A requirement that is a URL (`pkg @ https://...`,
		// git+https://) leads where only the text after it says.
		if strings.Contains(o, "://") || strings.Contains(o, "@") {
			return nil, false
		}
	}
	switch {
	case hasIndex || noIndex:
	case envIndex != "":
		d, ok := urlDestination(envIndex, false)
		if !ok {
			return nil, false
		}
		dests = append(dests, d)
	default:
		dests = append(dests, pipDefaultIndex...)
	}
	return dests, len(dests) > 0 || noIndex
}

// pipConfigFiles are the config files pip reads (pip's configuration
// docs): global (/etc/pip.conf, /etc/xdg/pip/pip.conf), user
// (~/.config/pip/pip.conf, ~/.pip/pip.conf) and site ($VIRTUAL_ENV/pip.conf).
func pipConfigFiles(env NetworkEnv) []string {
	out := []string{"/etc/pip.conf", "/etc/xdg/pip/pip.conf"}
	for _, d := range filepath.SplitList(env.Getenv("XDG_CONFIG_DIRS")) {
		if filepath.IsAbs(d) {
			out = append(out, filepath.Join(d, "pip", "pip.conf"))
		}
	}
	cfg := filepath.Join(env.Home, ".config")
	if v := env.Getenv("XDG_CONFIG_HOME"); filepath.IsAbs(v) {
		cfg = v
	}
	if env.Home != "" {
		out = append(out, filepath.Join(cfg, "pip", "pip.conf"), filepath.Join(env.Home, ".pip", "pip.conf"))
	}
	if v := env.Getenv("VIRTUAL_ENV"); filepath.IsAbs(v) {
		out = append(out, filepath.Join(v, "pip.conf"))
	}
	return out
}

// npmInstallSubs are npm's subcommands that fetch packages; publish,
// login and the like are left out on purpose.
var npmInstallSubs = []string{"install", "i", "ci", "add", "update", "up"}

// npmOpts are npm install's options (npm 9) that move no registry and
// run nothing else.
var npmOpts = optSpec{
	flags: "-D --save-dev -S --save -E --save-exact -O --save-optional --no-save --save-prod -P --production " +
		"--ignore-scripts --legacy-peer-deps --strict-peer-deps --no-audit --no-fund --prefer-offline --prefer-online " +
		"--offline --no-package-lock --package-lock-only -q --quiet -s --silent --foreground-scripts --dry-run",
	args: "--omit --include --loglevel -w --workspace --install-strategy",
	urls: "--registry",
}

// npmDefaultRegistry is npm's default registry.
var npmDefaultRegistry = Destination{"registry.npmjs.org", 443}

func npmDestinations(args []string, env NetworkEnv) ([]Destination, bool) {
	if len(args) == 0 || !slices.Contains(npmInstallSubs, args[0]) {
		return nil, false
	}
	ops, urls, ok := readOpts(npmOpts, args[1:])
	if !ok {
		return nil, false
	}
	for _, o := range ops {
		// A spec that is a URL, a git remote, a GitHub shorthand or a
		// tarball leads elsewhere; a name (@scope/name@1) does not.
		if strings.Contains(o, "://") || strings.Contains(o, ":") || strings.HasPrefix(o, ".") || strings.HasPrefix(o, "/") ||
			strings.Count(strings.TrimPrefix(o, "@"), "/") > 1 || !strings.HasPrefix(o, "@") && strings.Contains(o, "/") {
			return nil, false
		}
	}
	// npm's configuration can move the registry (or a scope's): its
	// environment (npm_config_*, any case) and npmrc files
	// (npmConfigFiles, read by the caller).
	if env.Getenv("NPM_CONFIG_USERCONFIG") != "" || env.Getenv("NPM_CONFIG_GLOBALCONFIG") != "" || env.Getenv("NPM_CONFIG_REGISTRY") != "" ||
		env.Getenv("npm_config_userconfig") != "" || env.Getenv("npm_config_globalconfig") != "" || env.Getenv("npm_config_registry") != "" ||
		env.Getenv("npm_config_prefix") != "" || env.Getenv("NPM_CONFIG_PREFIX") != "" {
		return nil, false
	}
	if len(urls) > 0 {
		return literalURLs(urls, false)
	}
	return []Destination{npmDefaultRegistry}, true
}

// npmConfigFiles are the npmrc files npm reads when run in dirs: the
// global places, the home directory's, and one in each directory from
// dirs up to the root.
func npmConfigFiles(dirs []string, env NetworkEnv) []string {
	files := []string{"/etc/npmrc", "/usr/etc/npmrc", "/usr/local/etc/npmrc"}
	if env.Home != "" {
		files = append(files, filepath.Join(env.Home, ".npmrc"))
	}
	for _, d := range dirs {
		for p := d; ; p = filepath.Dir(p) {
			files = append(files, filepath.Join(p, ".npmrc"))
			if p == filepath.Dir(p) {
				break
			}
		}
	}
	return files
}

// PipMoves reports a pip.conf key that adds or moves an index (pip
// reads `_` as `-`).
func PipMoves(key string) bool {
	key = strings.ReplaceAll(key, "_", "-")
	return slices.Contains([]string{"index-url", "extra-index-url", "find-links", "proxy", "trusted-host", "no-index"}, key)
}

// ReadsProjectNpmrc reports whether name (a basename) is npm(1), which
// reads the per-project .npmrc of its directory or any above it
// (npm-config(7)).
func ReadsProjectNpmrc(name string) bool { return name == "npm" }

// NpmMoves reports an npmrc key that moves the registry (or a scope's),
// or names other config files.
func NpmMoves(key string) bool {
	return key == "registry" || strings.HasSuffix(key, ":registry") || key == "userconfig" ||
		key == "globalconfig" || key == "prefix" || key == "proxy" || key == "https-proxy"
}
