package cmdmodel

import "testing"

func TestJobSource(t *testing.T) {
	dyn := Word{Text: "$F", Dynamic: true}
	for _, tc := range []struct {
		read func([]Word) JobSource
		args []Word
		want JobSource
	}{
		{AtJobs, scriptWords("at now"), JobsFromStdin},
		{AtJobs, scriptWords("at -q b -t 202601010000"), JobsFromStdin},
		{AtJobs, scriptWords("at -mqb now"), JobsFromStdin},
		{AtJobs, scriptWords("at -q f now"), JobsFromStdin}, // f is the queue
		{AtJobs, scriptWords("at -f job now"), JobsFromFile},
		{AtJobs, scriptWords("at -mf job now"), JobsFromFile},
		{AtJobs, scriptWords("at -l"), JobsNone},
		{AtJobs, scriptWords("batch -V"), JobsNone},
		{AtJobs, scriptWords("at -- -f"), JobsFromStdin},
		{AtJobs, append(scriptWords("at"), dyn), JobsDynamic},
		{CrontabJobs, scriptWords("crontab"), JobsFromStdin},
		{CrontabJobs, scriptWords("crontab -"), JobsFromStdin},
		{CrontabJobs, scriptWords("crontab -u root -"), JobsFromStdin},
		{CrontabJobs, scriptWords("crontab -u root tab"), JobsFromFile},
		{CrontabJobs, scriptWords("crontab -u -l"), JobsFromStdin}, // -l is the user
		{CrontabJobs, scriptWords("crontab -l"), JobsNone},
		{CrontabJobs, scriptWords("crontab -ir"), JobsNone},
		{CrontabJobs, scriptWords("crontab tab -e"), JobsNone},
		{CrontabJobs, append(scriptWords("crontab tab"), dyn), JobsDynamic},
	} {
		if got := tc.read(tc.args); got != tc.want {
			t.Errorf("%v: got %d, want %d", tc.args, got, tc.want)
		}
	}
}
