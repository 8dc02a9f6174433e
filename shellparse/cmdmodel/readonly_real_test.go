package cmdmodel

import (
	"context"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
)

// refusedRe is how ps, date, hostname, go and pip refuse an option.
var refusedRe = regexp.MustCompile(`(?i)(invalid|unrecognized|unknown|unsupported|bad) option|no such option|flag provided but not defined|error: (unsupported|garbage)|unknown gnu long option|invalid argument`)

// TestReadOnlyFormsRealTools: every option the read-only forms of ps,
// date, hostname, go and pip accept (safe_table.go) is one the real tool
// accepts, run in that form; and the form is read-only by the model, so
// the lists checked are the ones the predicates use.
func TestReadOnlyFormsRealTools(t *testing.T) {
	type form struct {
		name string
		args []string
	}
	var forms []form
	for _, c := range psUnix {
		forms = append(forms, form{"ps", []string{"-" + string(c)}})
	}
	// psValue is a harmless value for a ps option taking one.
	psValue := func(opt string) string {
		switch opt {
		case "o", "O", "sort", "format":
			return "pid"
		case "u", "U", "g", "G", "user", "User", "group", "Group":
			return "root"
		case "t", "tty":
			return "pts/0"
		}
		return "1"
	}
	for _, c := range psWithArg {
		forms = append(forms, form{"ps", []string{"-" + string(c), psValue(string(c))}})
	}
	for _, c := range psBSD {
		forms = append(forms, form{"ps", []string{"a" + string(c)}})
	}
	for _, l := range psLong {
		forms = append(forms, form{"ps", []string{"--" + l}})
	}
	for _, l := range psLongArg {
		forms = append(forms, form{"ps", []string{"--" + l + "=" + psValue(l)}})
	}
	for _, o := range hostnameDisplay {
		forms = append(forms, form{"hostname", []string{o}})
	}
	for sub, flags := range goReadOnlyFlags {
		for _, f := range flags {
			forms = append(forms, form{"go", []string{sub, f}})
		}
	}
	for sub, flags := range pipReadOnlyFlags {
		for _, f := range flags {
			args := []string{sub, f}
			if sub == "show" {
				args = append(args, "pip")
			}
			forms = append(forms, form{"pip", args})
		}
	}
	for _, args := range [][]string{{"+%s"}, {"-d", "now"}, {"--date=now"}, {"-r", "/"}, {"--reference=/"},
		{"--iso-8601"}, {"--iso-8601=seconds"}, {"--rfc-3339=date"}, {"-Iseconds"}, {"-u"}, {"--utc"},
		{"--universal"}, {"-R"}, {"--rfc-2822"}, {"--rfc-email"}, {"--debug"}, {"--", "+%s"}} {
		forms = append(forms, form{"date", args})
	}
	for _, f := range forms {
		var words []Word
		for _, a := range append([]string{f.name}, f.args...) {
			words = append(words, Word{Text: a})
		}
		if !Safe(&Command{Args: words}, Place{}) {
			t.Errorf("%s %s: not read-only by the model, which lists it", f.name, strings.Join(f.args, " "))
			continue
		}
		bin := needBinary(t, f.name)
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		out, _ := exec.CommandContext(ctx, bin, f.args...).CombinedOutput()
		cancel()
		if m := refusedRe.Find(out); m != nil {
			t.Errorf("%s %s: the model accepts it, %s refuses it: %s", f.name, strings.Join(f.args, " "), f.name, firstLine(string(out)))
		}
	}
}
