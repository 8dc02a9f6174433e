package cmdmodel

import "strings"

// JobSource says where a scheduler (at, batch, crontab) takes the commands
// a call of it schedules from, by its options.
type JobSource int

const (
	// JobsFromStdin: the commands are read from standard input.
	JobsFromStdin JobSource = iota
	// JobsNone: the call schedules nothing (it lists, removes, edits or
	// shows jobs, or prints the version).
	JobsNone
	// JobsFromFile: the commands are a file's (at -f FILE, crontab FILE).
	JobsFromFile
	// JobsDynamic: a word only known at run time decides.
	JobsDynamic
)

// AtJobs reads the options of at(1) or batch (args[0] is the program):
// getopt "q:f:t:MmvlrdbVc", where -q QUEUE, -f FILE and -t TIME take a
// value, attached or the next word, and -l, -r, -d, -c (atq, atrm,
// showing a job) and -V run nothing. Options end at the first operand
// (the time), `-` or `--`.
func AtJobs(args []Word) JobSource {
	for i := 1; i < len(args); i++ {
		w := args[i]
		if w.Dynamic {
			return JobsDynamic
		}
		if w.Text == "--" || !strings.HasPrefix(w.Text, "-") || w.Text == "-" {
			break
		}
	letters:
		for j := 1; j < len(w.Text); j++ {
			switch w.Text[j] {
			case 'q', 't':
				if j == len(w.Text)-1 {
					i++ // the value is the next word
				}
				break letters
			case 'f':
				return JobsFromFile
			case 'l', 'r', 'd', 'c', 'V':
				return JobsNone
			}
		}
	}
	return JobsFromStdin
}

// CrontabJobs reads the options of crontab(1) (args[0] is the program):
// -u USER and -s take the next word; -l, -r, -e, -i, -T and -V install
// nothing from the call; a file operand installs that file, `-` or none
// the table on standard input.
func CrontabJobs(args []Word) JobSource {
	src := JobsFromStdin
	for i := 1; i < len(args); i++ {
		w := args[i]
		switch {
		case w.Dynamic:
			return JobsDynamic
		case w.Text == "-":
		case w.Text == "-u" || w.Text == "-s":
			i++
		case strings.HasPrefix(w.Text, "-") && strings.ContainsAny(w.Text[1:], "lreiTV"):
			return JobsNone
		case strings.HasPrefix(w.Text, "-"):
		default:
			src = JobsFromFile
		}
	}
	return src
}
