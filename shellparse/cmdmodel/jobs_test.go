package cmdmodel

import "testing"

func TestJobSource(t *testing.T) {
	dyn := Word{Text: "$F", Dynamic: true}
	for _, tc := range []struct {
		read func([]Word) JobSource
		args []Word
		want JobSource
	}{
		{AtJobs, findWords("at now"), JobsFromStdin},
		{AtJobs, findWords("at -q b -t 202601010000"), JobsFromStdin},
		{AtJobs, findWords("at -mqb now"), JobsFromStdin},
		{AtJobs, findWords("at -q f now"), JobsFromStdin}, // f is the queue
		{AtJobs, findWords("at -f job now"), JobsFromFile},
		{AtJobs, findWords("at -mf job now"), JobsFromFile},
		{AtJobs, findWords("at -l"), JobsNone},
		{AtJobs, findWords("batch -V"), JobsNone},
		{AtJobs, findWords("at -- -f"), JobsFromStdin},
		{AtJobs, append(findWords("at"), dyn), JobsDynamic},
		{CrontabJobs, findWords("crontab"), JobsFromStdin},
		{CrontabJobs, findWords("crontab -"), JobsFromStdin},
		{CrontabJobs, findWords("crontab -u root -"), JobsFromStdin},
		{CrontabJobs, findWords("crontab -u root tab"), JobsFromFile},
		{CrontabJobs, findWords("crontab -u -l"), JobsFromStdin}, // -l is the user
		{CrontabJobs, findWords("crontab -l"), JobsNone},
		{CrontabJobs, findWords("crontab -ir"), JobsNone},
		{CrontabJobs, findWords("crontab tab -e"), JobsNone},
		{CrontabJobs, append(findWords("crontab tab"), dyn), JobsDynamic},
	} {
		if got := tc.read(tc.args); got != tc.want {
			t.Errorf("%v: got %d, want %d", tc.args, got, tc.want)
		}
	}
}
