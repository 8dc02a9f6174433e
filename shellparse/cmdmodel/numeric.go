package cmdmodel

import "strings"

// PrintsNumber reports whether the command line args (static words, the
// name first) prints one number and nothing else: wc with counting options
// only, grep -c over at most one file, nproc, seq over numbers, `date
// +%s`, id -u/-g. number judges a word that must hold a number.
func PrintsNumber(args []string, number func(string) bool) bool {
	if len(args) == 0 {
		return false
	}
	rest := args[1:]
	switch args[0] {
	case "wc":
		for _, a := range rest {
			switch a {
			case "-l", "-c", "-m", "-w", "-L", "--lines", "--bytes", "--chars", "--words", "--max-line-length":
			default:
				return false
			}
		}
		return true
	case "grep", "egrep", "fgrep":
		// One count, with no file name before it: no -r, -H, -f, and at
		// most one file.
		count, operands := false, 0
		for _, a := range rest {
			switch {
			case a == "--count":
				count = true
			case strings.HasPrefix(a, "-") && len(a) > 1:
				if strings.Trim(a[1:], "cviwxEFGP") != "" {
					return false
				}
				count = count || strings.Contains(a, "c")
			default:
				operands++
			}
		}
		return count && operands >= 1 && operands <= 2
	case "nproc":
		return len(rest) == 0 || len(rest) == 1 && rest[0] == "--all"
	case "seq":
		for _, a := range rest {
			if a != "-w" && !number(a) {
				return false
			}
		}
		return len(rest) > 0
	case "date":
		return len(rest) == 1 && rest[0] == "+%s"
	case "id":
		for _, a := range rest {
			switch a {
			case "-u", "-g", "-r", "-ur", "-ru", "-gr", "-rg":
			default:
				return false
			}
		}
		return len(rest) > 0
	}
	return false
}
