package shellparse

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gatekeep/gatekeep/shellparse/cmdmodel"
)

// awkForms are awk programs that use each construct awk.go reads, every
// one unconditionally (in BEGIN, or on the one input line). The markers
// M* are files a command the program runs creates, F* files it writes;
// R* are files it reads, which hold READ-R* (printed when read).
var awkForms = []string{
	`BEGIN{system("touch M1")}`,
	`BEGIN{print "x" | "touch M2"}`,
	`BEGIN{"touch M3" | getline}`,
	`BEGIN{print "x" > "F4"}`,
	`BEGIN{getline l < "R5"; print l}`,
	`{print $1}`,
	`BEGIN{printf "x" >> "F7"}`,
	`BEGIN { system ("touch " "M8") }`,
	`BEGIN{print "x" > ("F" "9")}`,
	`BEGIN{system("touch\tM10")}`,
	`BEGIN{print "x" > "F\0611"}`,
	`BEGIN{print "x" > "F\x41"}`,
	`BEGIN{if (1 > 2) print "x"; print (1 > 2)}`,
	`BEGIN{if ("a/b" ~ /a\/b|[\/]x/) system("touch M14")}`,
	"BEGIN{ # system(\"touch M15\")\n}",
	`BEGIN{system("touch M16 #x")}`,
	`BEGIN{a = 4; b = 2; c = a / b; system("touch M17"); d = a / b}`,
	`BEGIN{getline l < ("R" "18"); print l}`,
	`BEGIN{print "x" > "/dev/stderr"}`,
	`BEGIN{printf("%s", "x") > "F20"}`,
	`BEGIN{print "touch M21" | "sh"}`,
	`BEGIN{while (("touch M22; echo y" | getline l) > 0) n++; print n}`,
	`BEGIN{x = "a" "b"; print x, "q>r", "s|t"} /"/ {print}`,
	"BEGIN{print \"x\",\n \"y\" > \"F24\"}",
	`{ print $1 > "F25"; close("F25") }`,
	`BEGIN{getline < "R26"; print}`,
	`BEGIN{system("touch M27"); exit}`,
	`BEGIN{print "x" |& "touch M28"}`, // gawk's coprocess; a syntax error elsewhere
	`BEGIN{"touch M29" |& getline}`,
	`BEGIN{print "x" >> "F30"; print "y" >> "F30"}`,
}

// awkReading is what gatekeep reads in an awk command: the files created
// by the touch commands it finds and by the program's writes, and the
// files it reads by name.
func awkReading(t *testing.T, line string) (created, read []string, unknown bool) {
	s, err := Parse(line, Options{})
	if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	for i := range s.Commands {
		c := &s.Commands[i]
		switch {
		case cmdmodel.IsAwk(c.Name()):
			unknown = unknown || c.Unknown != ""
			effects, _ := Effects(c)
			for _, e := range effects {
				switch {
				case e.Path.Text == "in":
				case e.Access == cmdmodel.Write:
					created = append(created, e.Path.Text)
				default:
					read = append(read, e.Path.Text)
				}
			}
		case c.Name() == "touch":
			for _, w := range c.Args[1:] {
				created = append(created, w.Text)
			}
		}
	}
	slices.Sort(created)
	slices.Sort(read)
	return slices.Compact(created), slices.Compact(read), unknown
}

// TestRealAwk runs each form with the awks installed (gawk, mawk,
// BusyBox's) and fails when the files it created or read differ from
// gatekeep's reading of the program. A form an awk refuses (a syntax
// error: gawk's |& elsewhere) runs nothing there and is not compared.
func TestRealAwk(t *testing.T) {
	for _, awk := range [][]string{{"gawk"}, {"mawk"}, {"busybox", "awk"}} {
		t.Run(awk[0], func(t *testing.T) { realAwk(t, awk) })
	}
}

func realAwk(t *testing.T, awk []string) {
	awk = append([]string{needTool(t, awk[0])}, awk[1:]...)
	name := filepath.Base(awk[len(awk)-1])
	for _, prog := range awkForms {
		created, read, unknown := awkReading(t, "awk '"+strings.ReplaceAll(prog, "'", `'\''`)+"' in")
		if unknown {
			t.Errorf("%s: gatekeep reads %q as unknown", name, prog)
			continue
		}
		dir := t.TempDir()
		files := map[string]string{"in": "a b\n"}
		for _, r := range []string{"R5", "R18", "R26"} {
			files[r] = "READ-" + r + "\n"
		}
		for f, body := range files {
			if err := os.WriteFile(filepath.Join(dir, f), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		cmd := exec.CommandContext(ctx, awk[0], append(awk[1:], prog, "in")...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "LC_ALL=C")
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		runErr := cmd.Run()
		cancel()
		msg := strings.ToLower(errb.String())
		if runErr != nil && (strings.Contains(msg, "syntax") || strings.Contains(msg, "unexpected")) {
			t.Logf("%s refuses %q: %s", name, prog, strings.TrimSpace(errb.String()))
			continue
		}
		time.Sleep(20 * time.Millisecond) // a command fed by print | may finish after awk
		var realCreated, realRead []string
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			if _, ok := files[e.Name()]; !ok {
				realCreated = append(realCreated, e.Name())
			}
		}
		for r := range files {
			if strings.Contains(out.String(), "READ-"+r) {
				realRead = append(realRead, r)
			}
		}
		slices.Sort(realCreated)
		slices.Sort(realRead)
		if !slices.Equal(created, realCreated) {
			t.Errorf("%s %q created %q; gatekeep reads %q", name, prog, realCreated, created)
		}
		if !slices.Equal(read, realRead) {
			t.Errorf("%s %q read %q; gatekeep reads %q", name, prog, realRead, read)
		}
	}
}
