package cmdmodel

import (
	"strings"
	"testing"
)

// fields is the Command of line's blank-separated words; a word holding
// "$" is only known at run time.
func fields(line string) *Command {
	var c Command
	for _, w := range strings.Fields(line) {
		c.Args = append(c.Args, Word{Text: w, Dynamic: strings.Contains(w, "$")})
	}
	return &c
}

func texts(ws []Word) string {
	var out []string
	for _, w := range ws {
		out = append(out, w.Text)
	}
	return strings.Join(out, " ")
}

// TestSystemReaders reads the danger layer's command lines as the tools
// read them, and a line the model does not understand for the worst.
func TestSystemReaders(t *testing.T) {
	for _, tt := range []struct {
		line, want string
		read       func(c *Command) string
	}{
		// GNU find takes `,` as a start point like any other path.
		{"find , / -delete", ", /", func(c *Command) string { return texts(FindStarts(c.Args[1:])) }},
		{"find -L / -name x", "/", func(c *Command) string { return texts(FindStarts(c.Args[1:])) }},
		{"find -name x", ".", func(c *Command) string { return texts(FindStarts(c.Args[1:])) }},
		{"rm -fr -- -x /", "-x / true", rmRead},
		{"rm --rec a", "a true", rmRead},
		{"rm a b", "a b false", rmRead},
		{"rm --bogus a", "a true", rmRead},
		{"dd if=/dev/zero of=/dev/sda bs=1M", "/dev/sda", func(c *Command) string { return texts(DdOutputs(c)) }},
		{"tee -a a b", "a b", func(c *Command) string { return texts(CopyDestinations(c, "tee")) }},
		{"tee --bogus a", "--bogus a", func(c *Command) string { return texts(CopyDestinations(c, "tee")) }},
		{"cp -r a b c", "c", func(c *Command) string { return texts(CopyDestinations(c, "cp")) }},
		{"mv -t d a b", "d b", func(c *Command) string { return texts(CopyDestinations(c, "mv")) }},
		{"install a", "", func(c *Command) string { return texts(CopyDestinations(c, "install")) }},
		{"cat a b", "", func(c *Command) string { return texts(CopyDestinations(c, "cat")) }},
		{"chmod -R 755 /etc", "/etc true", permRead("chmod")},
		{"chmod 755 a", "a false", permRead("chmod")},
		{"chown --reference=r a", "a false", permRead("chown")},
		{"mv /etc /tmp/x", "/etc", func(c *Command) string { return texts(MovedAway(c)) }},
		{"mv -t /tmp /etc /usr", "/etc /usr", func(c *Command) string { return texts(MovedAway(c)) }},
		{"rsync -a --del src/ /", "/", func(c *Command) string { return texts(SyncDeleteDests(c)) }},
		{"rsync -a src/ /", "", func(c *Command) string { return texts(SyncDeleteDests(c)) }},
		{"rsync --bogus src/ /", "/ /", func(c *Command) string { return texts(SyncDeleteDests(c)) }},
	} {
		if got := tt.read(fields(tt.line)); got != tt.want {
			t.Errorf("%s: read %q, want %q", tt.line, got, tt.want)
		}
	}
}

func rmRead(c *Command) string {
	ops, r := RmLine(c)
	return strings.TrimSpace(texts(ops) + " " + map[bool]string{true: "true", false: "false"}[r])
}

func permRead(name string) func(c *Command) string {
	return func(c *Command) string {
		files, r := PermChanged(c, name)
		return strings.TrimSpace(texts(files) + " " + map[bool]string{true: "true", false: "false"}[r])
	}
}

// TestPrintsRemote: downloaders, ssh, telnet and openssl s_client print
// what comes from the network.
func TestPrintsRemote(t *testing.T) {
	for _, tt := range []struct {
		line string
		want bool
	}{
		{"curl URL", true}, {"ssh host cat f", true}, {"telnet h", true},
		{"openssl s_client -connect h:443", true}, {"openssl $X", true}, {"openssl x509 -in c", false},
		{"cat f", false},
	} {
		c := fields(tt.line)
		if got := PrintsRemote(c.Name(), c); got != tt.want {
			t.Errorf("PrintsRemote(%s) = %v, want %v", tt.line, got, tt.want)
		}
	}
}
