package shellparse

import (
	"strings"
	"testing"

	"github.com/gatekeep/gatekeep/shellparse/cmdmodel"
)

// fx is what Effects reports for one command: its effects as
// "access path" joined by ", " (a dynamic path is marked with "~", a
// recursive read is "tree path"), and writesOnly.
type fx struct {
	effects    string
	writesOnly bool
}

func renderEffects(effects []cmdmodel.FileEffect) string {
	parts := make([]string, len(effects))
	for i, e := range effects {
		d := ""
		if e.Path.Dynamic {
			d = "~"
		}
		access := e.Access.String()
		if e.Recursive {
			access = "tree"
		}
		if e.Tracked {
			access = "tracked"
		}
		parts[i] = access + " " + d + e.Path.Text
	}
	return strings.Join(parts, ", ")
}

func TestEffects(t *testing.T) {
	home := Options{Home: "/home/u"}
	tests := []struct {
		src  string
		opt  Options
		want []fx // one per command of the script
	}{
		// Everyday commands: a heredoc, mkdir, redirects, sed -i, rm, cp, mv,
		// grep -r, find -exec.
		{src: "cat <<'EOF' > f.py\nprint('hi')\nEOF\n", want: []fx{{"write f.py", true}}},
		{src: `mkdir -p src/x`, want: []fx{{"write src/x", true}}},
		{src: `echo hi > notes.md`, want: []fx{{"write notes.md", true}}},
		{src: `sed -i 's/a/b/' f.go`, want: []fx{{"write f.go", true}}},
		{src: `rm build/out.o`, want: []fx{{"write build/out.o", true}}},
		{src: `cp a.txt /etc/`, want: []fx{{"read a.txt, write /etc/, write /etc/a.txt", true}}},
		{src: `cp -t dir a b`, want: []fx{{"write dir, read a, read b, write dir/a, write dir/b", true}}},
		{src: `mv -- -x y`, want: []fx{{"write -x, write y, write y/-x", true}}},
		{src: `echo x >> ~/.bashrc`, opt: home, want: []fx{{"write /home/u/.bashrc", true}}},
		{src: `echo x >> $HOME/.bashrc`, opt: home, want: []fx{{"write /home/u/.bashrc", true}}},
		{src: `echo x >> ~/.bashrc`, want: []fx{{"write ~~/.bashrc", true}}},
		{src: `echo hi > "$OUT"`, want: []fx{{"write ~$OUT", true}}},
		{src: `echo hi > $(mktemp)`, want: []fx{{"write ~$(mktemp)", true}, {"", false}}},
		{src: `ls 2>&1 >/dev/null`, want: []fx{{"write /dev/null", true}}},
		{src: `grep -e pat -r src`, want: []fx{{"tree src", false}}},
		{src: `find . -name x -exec cat {} \;`, want: []fx{{"", false}, {"read ~{}", false}}},

		// Files the model's options read or write.
		{src: `git commit --allow-empty -F ~/.ssh/id_rsa`, opt: home, want: []fx{{"read /home/u/.ssh/id_rsa", false}}},
		{src: `git commit -t tpl --file=msg -m x`, want: []fx{{"read tpl, read msg", false}}},
		{src: `git commit -Fmsg`, want: []fx{{"read msg", false}}},
		{src: `git commit -m -F`, want: []fx{{"", false}}},
		{src: `git -C sub tag -a v1 -F notes.txt`, want: []fx{{"read sub/notes.txt", false}}},
		{src: `git notes add -F n.txt HEAD`, want: []fx{{"read n.txt", false}}},
		{src: `go test -coverprofile=c.out ./...`, want: []fx{{"write c.out", false}}},
		{src: `go test -c -o /tmp/bin/ls`, want: []fx{{"write /tmp/bin/ls", false}}},
		{src: `go test -cpuprofile X -outputdir /o ./...`, want: []fx{{"write /o, write /o/X", false}}},
		{src: `go test ./x -args -test.trace=t.out -v`, want: []fx{{"write t.out", false}}},
		{src: `go test ./x -args -coverprofile=c`, want: []fx{{"", false}}},
		{src: `go build -o bin/x -pkgdir /p .`, want: []fx{{"write bin/x, write /p", false}}},
		{src: `go run . -o x`, want: []fx{{"", false}}},
		{src: `go vet -run=x ./...`, want: []fx{{"", false}}},

		// Redirects.
		{src: `make &> all.log`, want: []fx{{"write all.log", false}}},
		{src: `make &>> all.log`, want: []fx{{"write all.log", false}}},
		{src: `echo x >| f`, want: []fx{{"write f", true}}},
		{src: `echo >&out.txt`, want: []fx{{"write out.txt", true}}},
		{src: `echo x 3> three`, want: []fx{{"write three", true}}},
		{src: `cat <> rw`, want: []fx{{"write rw", true}}},
		{src: `echo x >&2`, want: []fx{{"", false}}},
		{src: `echo x 2>&1 >&-`, want: []fx{{"", false}}},
		{src: `cat <&3`, want: []fx{{"", false}}},
		{src: `wc -l < in.txt`, want: []fx{{"read in.txt", false}}},
		{src: `cat <<< "hi"`, want: []fx{{"", false}}},
		{src: `> empty`, want: []fx{{"write empty", true}}},
		{src: `{ echo a; echo b; } > both`, want: []fx{{"write both", true}, {"", false}, {"", false}}},
		{src: `exec > log 2>&1`, want: []fx{{"write log", true}}},
		{src: `FOO=1`, want: []fx{{"", false}}},
		{src: `make > out`, want: []fx{{"write out", false}}}, // not in the table
		{src: `./cat f > out`, want: []fx{{"read f, write out", false}}},
		{src: `/bin/rm f`, want: []fx{{"write f", false}}}, // effects by basename; writesOnly only for a bare name

		// Print only: dynamic words are no files.
		{src: `echo $PATH > out`, want: []fx{{"write out", true}}},
		{src: `printf '%s\n' "$X" >> log`, want: []fx{{"write log", true}}},
		{src: `ls -la $D > listing`, want: []fx{{"write listing", true}}},
		{src: `date -s 10:00 > out`, want: []fx{{"write out", false}}},

		// Readers.
		{src: `cat a b - c`, want: []fx{{"read a, read b, read c", false}}},
		{src: `cat "$F" > out`, want: []fx{{"read ~$F, write out", true}}},
		{src: `head -n 5 f`, want: []fx{{"read f", false}}},
		{src: `head -n $N f`, want: []fx{{"read f, read ~$N", false}}},
		{src: `tail -f -n 20 log`, want: []fx{{"read log", false}}},
		{src: `wc --files0-from=list`, want: []fx{{"read list", false}}},
		{src: `grep -n TODO a.go b.go`, want: []fx{{"read a.go, read b.go", false}}},
		{src: `grep -f pats.txt in`, want: []fx{{"read pats.txt, read in", false}}},
		{src: `grep -rn TODO`, want: []fx{{"tree .", false}}},
		{src: `grep --exclude-dir=.git -A 3 x src`, want: []fx{{"read src", false}}},
		{src: `egrep 'a|b' f`, want: []fx{{"read f", false}}},
		{src: `rg -n TODO src > hits`, want: []fx{{"tree src, write hits", true}}},
		{src: `rg --files src`, want: []fx{{"read src", false}}},
		{src: `rg -r X pat f`, want: []fx{{"tree f", false}}},
		{src: `rg --pre ./conv pat f > out`, want: []fx{{"tree f, write out", false}}},
		{src: `rg -z pat f > out`, want: []fx{{"tree f, write out", false}}},
		{src: `sed -n '1,5p' f > out`, want: []fx{{"read f, write out", true}}},
		{src: `sed -n -e p -e 'w copy' f`, want: []fx{{"write copy, read f", true}}},
		{src: `sed 'r /etc/passwd' f`, want: []fx{{"read /etc/passwd, read f", false}}},
		{src: `sort -u f > out`, want: []fx{{"read f, write out", true}}},
		{src: `sort -o /etc/x in`, want: []fx{{"write /etc/x, read in", true}}},
		{src: `sort --out=o in`, want: []fx{{"write o, read in", true}}},
		{src: `sort -T tmp in`, want: []fx{{"write tmp, read in", true}}},
		{src: `sort --compress-program=gz in > o`, want: []fx{{"read in, write o", false}}},
		{src: `sort $X > out`, want: []fx{{"write ~$X, write out", false}}},
		{src: `uniq in`, want: []fx{{"read in", false}}},
		{src: `uniq -c in out`, want: []fx{{"read in, write out", true}}},
		{src: `cut -d: -f1 /etc/passwd`, want: []fx{{"read /etc/passwd", false}}},
		{src: `tr a-z A-Z < in > out`, want: []fx{{"read in, write out", true}}},
		{src: `nl -b a f`, want: []fx{{"read f", false}}},
		{src: `diff -u a b`, want: []fx{{"tree a, tree b", false}}},
		{src: `diff -U 3 a b`, want: []fx{{"tree a, tree b", false}}},
		{src: `cmp -n 10 a b 5 6`, want: []fx{{"read a, read b", false}}},
		{src: `sha256sum -c SUMS`, want: []fx{{"read SUMS", false}}},
		{src: `base64 -w0 key`, want: []fx{{"read key", false}}},
		{src: `base64 -i in -o out`, want: []fx{{"read in, write out", true}}},
		{src: `xxd f`, want: []fx{{"read f", false}}},
		{src: `xxd -r -cols 8 in out`, want: []fx{{"read in, write out", true}}},
		{src: `xxd -c8 -ps in -`, want: []fx{{"read in", false}}},
		{src: `xxd -s 0x10 -l 16 in`, want: []fx{{"read in", false}}},
		{src: `od -An -tx1 f`, want: []fx{{"read f", false}}},
		{src: `hexdump -C f`, want: []fx{{"read f", false}}},
		{src: `strings -n 8 bin`, want: []fx{{"read bin", false}}},
		{src: `file -b x`, want: []fx{{"read x", false}}},
		{src: `jq '.a' f.json > out.json`, want: []fx{{"read f.json, write out.json", true}}},
		{src: `jq -n --arg x y --rawfile r secret '$r' --args a b`, want: []fx{{"read secret", false}}},
		{src: `jq -f prog.jq in.json`, want: []fx{{"read prog.jq, read in.json", false}}},
		{src: `awk '{print $1}' f > out`, want: []fx{{"read f, write out", true}}},
		{src: `awk '{print > "o1"; print >> ("o" "2")}' f`, want: []fx{{"read f, write o1, write o2", true}}},
		{src: `awk 'BEGIN{while ((getline l < "in") > 0) print l > "/dev/stderr"}'`, want: []fx{{"read in", false}}},
		{src: `awk '{print > $1}' f`, want: []fx{{"read f", false}}},
		{src: `gawk -d -oprof.out 1 f`, want: []fx{{"read f, write awkvars.out, write prof.out", false}}},
		{src: `awk -e '{print}' -v a=1 f x=1`, want: []fx{{"read f", false}}},
		{src: `awk -F: -f prog.awk n=1 f`, want: []fx{{"read prog.awk, read f", false}}},
		{src: `less +G -N log`, want: []fx{{"read log", false}}},
		{src: `less -o copy log`, want: []fx{{"write copy, read log", false}}},
		{src: `source ./env.sh a b`, want: []fx{{"read ./env.sh", false}}},
		{src: `. ~/.profile`, opt: home, want: []fx{{"read /home/u/.profile", false}}},
		{src: `tree -o tree.txt`, want: []fx{{"write tree.txt", true}}},
		{src: `du -sh $D`, want: []fx{{"read ~$D", false}}},

		// Commands of the safe list that read named files, which Read rules
		// must see (`fmt .env`).
		{src: `fmt -w 72 .env`, want: []fx{{"read .env", false}}},
		{src: `fmt -p '#' f`, want: []fx{{"read #, read f", false}}},
		{src: `shasum -a 256 f`, want: []fx{{"read f", false}}},
		{src: `md5 -s str f`, want: []fx{{"read f", false}}},
		{src: `dir -la d`, want: []fx{{"", false}}},
		{src: `tree --fromfile .env`, want: []fx{{"read .env", false}}},
		{src: `tree --fromfile .`, want: []fx{{"", false}}},
		{src: `tree -a ~/.ssh`, opt: home, want: []fx{{"", false}}},
		// $D may be `-o FILE`, or -R, which writes 00Tree.html in every
		// directory (the command model marks it as acting beyond files).
		{src: `tree $D`, want: []fx{{"write ~$D", false}}},

		// Recursive reads: trees.
		{src: `grep -r SECRET .`, want: []fx{{"tree .", false}}},
		{src: `grep -R . ~/.ssh`, opt: home, want: []fx{{"tree /home/u/.ssh", false}}},
		{src: `grep --recursive x a b`, want: []fx{{"tree a, tree b", false}}},
		{src: `grep -d recurse x a`, want: []fx{{"tree a", false}}},
		// grep's argmatch: any unambiguous prefix of recurse (red team).
		{src: `grep -d rec x a`, want: []fx{{"tree a", false}}},
		{src: `grep --directories=recu x a`, want: []fx{{"tree a", false}}},
		{src: `grep -d re x a`, want: []fx{{"tree a", false}}}, // read or recurse: refused by grep, judged as the tree
		{src: `grep -d read x a`, want: []fx{{"read a", false}}},
		{src: `grep -d sk x a`, want: []fx{{"read a", false}}},
		{src: `grep --directories=recurse x`, want: []fx{{"tree .", false}}},
		{src: `grep x a`, want: []fx{{"read a", false}}},
		{src: `grep -C foo .env`, want: []fx{{"read .env", false}}},
		{src: `grep -C 3 foo .env`, want: []fx{{"read foo, read .env", false}}}, // GNU: "3" is -C's
		{src: `grep -C2 foo .env`, want: []fx{{"read .env", false}}},
		{src: `diff -rN ~/.ssh sub`, opt: home, want: []fx{{"tree /home/u/.ssh, tree sub", false}}},
		{src: `diff -N a b`, want: []fx{{"tree a, tree b", false}}},
		{src: `diff --from-file=a b c`, want: []fx{{"tree a, tree b, tree c", false}}},
		{src: `rg foo`, want: []fx{{"tree .", false}}},
		{src: `rg --hidden foo ~/.ssh`, opt: home, want: []fx{{"tree /home/u/.ssh", false}}},
		{src: `rg -e foo -e bar a`, want: []fx{{"tree a", false}}},
		{src: `rg --type-list`, want: []fx{{"", false}}},
		{src: `ls | rg foo`, want: []fx{{"", false}, {"tree .", false}}},
		{src: `cp -a ~/.ssh keys`, opt: home, want: []fx{{"tree /home/u/.ssh, write keys, write keys/.ssh", true}}},
		{src: `cp -R -t d a`, want: []fx{{"write d, tree a, write d/a", true}}},
		{src: `scp -r d host:x`, want: []fx{{"tree d", false}}},

		// git: files outside the objects, and paths inside revisions.
		{src: `git diff --no-index a .env`, want: []fx{{"tree a, tree .env", false}}},
		{src: `git diff --no-index -- ~/.ssh b`, opt: home, want: []fx{{"tree /home/u/.ssh, tree b", false}}},
		// git diff may read any operand as a plain file (git-diff(1)): a
		// revision names no file and matches no rule.
		{src: `git diff HEAD~1 -- .env`, want: []fx{{"tree HEAD~1, tree .env", false}}},
		{src: `git diff --stat HEAD~1`, want: []fx{{"tree HEAD~1", false}}},
		{src: `git diff /home/u/.ssh/id_rsa a.txt`, want: []fx{{"tracked ., tree /home/u/.ssh/id_rsa, tree a.txt", false}}},
		{src: `git blame --contents .env x`, want: []fx{{"read .env, read x", false}}},
		{src: `git blame --contents=- x`, want: []fx{{"read x", false}}},
		{src: `git blame -L 1,10 main.go`, want: []fx{{"read 1,10, read main.go", false}}},
		{src: `git grep --no-index foo`, want: []fx{{"tree .", false}}},
		{src: `git grep --no-index -e foo a b`, want: []fx{{"tree a, tree b", false}}},
		{src: `git grep --no-index foo -- ':!x'`, want: []fx{{"tree .", false}}},
		{src: `git grep --untracked foo -- src`, want: []fx{{"tree src", false}}},
		{src: `git grep -n foo`, want: []fx{{"tracked .", false}}},
		// git's parse-options takes a prefix of a long option (red team).
		{src: `git grep --untr foo`, want: []fx{{"tree .", false}}},
		{src: `git grep --no-i foo a`, want: []fx{{"tree a", false}}},
		// A pathspec that may match more than it names prints every
		// tracked file it matches: every tracked file is judged.
		{src: `git grep foo -- '*'`, want: []fx{{"tracked ., tree *", false}}},
		{src: `git show HEAD -- .`, want: []fx{{"tracked ., read .", false}}},
		{src: `git log -p -- ':!README'`, want: []fx{{"tracked .", false}}},
		{src: `git log -p -- ':(icase).ENV'`, want: []fx{{"tracked .", false}}},
		{src: `git log -p -- src/`, want: []fx{{"tracked ., read src/", false}}},
		{src: `git log -p -- README.md`, want: []fx{{"read README.md", false}}},
		{src: `git log --stat -- .`, want: []fx{{"read .", false}}},
		{src: `git grep -f pats.txt`, want: []fx{{"read pats.txt, tracked .", false}}},
		{src: `git grep foo HEAD:.env`, want: []fx{{"read .env", false}}},
		{src: `git -C /r grep --no-index foo`, want: []fx{{"tree /r/.", false}}},
		{src: `git show HEAD:.env`, want: []fx{{"read .env", false}}},
		{src: `git show :.env`, want: []fx{{"read .env", false}}},
		{src: `git show :2:conf/.env`, want: []fx{{"read conf/.env", false}}},
		{src: `git show HEAD`, want: []fx{{"tracked .", false}}},
		{src: `git show :/fix`, want: []fx{{"tracked .", false}}},
		{src: `git show --stat HEAD`, want: []fx{{"", false}}},
		{src: `git log -p`, want: []fx{{"tracked .", false}}},
		{src: `git log --oneline`, want: []fx{{"", false}}},
		{src: `git log -p -- src`, want: []fx{{"tracked ., read src", false}}}, // src may be a directory
		{src: `git show HEAD:`, want: []fx{{"", false}}},
		{src: `git show 'HEAD^{/fix: x}:a/b'`, want: []fx{{"read a/b", false}}},
		{src: `git cat-file -p main:.env`, want: []fx{{"read .env", false}}},
		{src: `git -C sub cat-file blob v1:./k.pem`, want: []fx{{"read sub/./k.pem", false}}},
		{src: `git log -L10,20:.env`, want: []fx{{"read .env", false}}},
		{src: `git log -L :main:src/a.go`, want: []fx{{"read src/a.go, read main:src/a.go", false}}},
		{src: `git log -p -- .env`, want: []fx{{"read .env", false}}},
		{src: `git log --oneline -n 5`, want: []fx{{"", false}}},

		// Writers.
		{src: `mkdir -m 755 -p a b`, want: []fx{{"write a, write b", true}}},
		{src: `mkdir "$D"`, want: []fx{{"write ~$D", true}}},
		{src: `rmdir -p a/b/c`, want: []fx{{"write a/b/c, write a/b, write a", true}}},
		{src: `rmdir --parents /x/y/`, want: []fx{{"write /x/y/, write /x", true}}},
		{src: `rm -rf build dist`, want: []fx{{"write build, write dist", true}}},
		{src: `rm -rf /`, want: []fx{{"write /", true}}},
		{src: `rm -- -f`, want: []fx{{"write -f", true}}},
		{src: `rm f -i`, want: []fx{{"write f", true}}},
		{src: `touch -r ref new`, want: []fx{{"read ref, write new", true}}},
		{src: `touch -d yesterday -t 202401010000 f`, want: []fx{{"write f", true}}},
		{src: `truncate -s 0 -r ref f`, want: []fx{{"read ref, write f", true}}},
		{src: `chmod +x run.sh`, want: []fx{{"write run.sh", true}}},
		{src: `chmod -R 755 a b`, want: []fx{{"write a, write b", true}}},
		{src: `chmod -w f`, want: []fx{{"write f", true}}},
		{src: `chmod -R -x,g+r d`, want: []fx{{"write d", true}}},
		{src: `chmod --reference=r a`, want: []fx{{"read r, write a", true}}},
		{src: `chmod --ref r a`, want: []fx{{"read r, write a", true}}},
		{src: `chmod $MODE f`, want: []fx{{"write f, write ~$MODE", true}}},
		{src: `chown u:g -R dir`, want: []fx{{"write dir", true}}},
		{src: `chown --reference=r -h a b`, want: []fx{{"read r, write a, write b", true}}},
		{src: `chgrp staff f`, want: []fx{{"write f", true}}},
		{src: `tee -a log out`, want: []fx{{"write log, write out", true}}},
		{src: `tee --output-error=warn f`, want: []fx{{"write f", true}}},
		{src: `cp -r src/ dst`, want: []fx{{"tree src/, write dst, write dst/src", true}}},
		{src: `cp -S .bak a b`, want: []fx{{"read a, write b, write b/a", true}}},
		{src: `cp --backup=numbered a b`, want: []fx{{"read a, write b, write b/a", true}}},
		{src: `cp --target-directory=d a`, want: []fx{{"write d, read a, write d/a", true}}},
		{src: `cp --target d a`, want: []fx{{"write d, read a, write d/a", true}}},
		{src: `cp -td a`, want: []fx{{"write d, read a, write d/a", true}}},
		{src: `cp -T a b`, want: []fx{{"read a, write b", true}}},
		{src: `cp "$SRC" dst`, want: []fx{{"write ~$SRC, write dst, write ~dst/$SRC", true}}},
		{src: `cp a`, want: []fx{{"write a", true}}},
		{src: `mv a b c/`, want: []fx{{"write a, write b, write c/, write c/a, write c/b", true}}},
		{src: `mv -t /tmp a`, want: []fx{{"write /tmp, write a, write /tmp/a", true}}},
		{src: `install -m 644 a /usr/local/bin/`, want: []fx{{"read a, write /usr/local/bin/, write /usr/local/bin/a", true}}},
		{src: `install -d a b`, want: []fx{{"write a, write b", true}}},
		{src: `install -s a b`, want: []fx{{"read a, write b, write b/a", false}}},
		{src: `ln -s ../target`, want: []fx{{"read ../target, write target", true}}},
		{src: `ln -sf a b`, want: []fx{{"read a, write b, write b/a", true}}},
		{src: `ln -t d a b`, want: []fx{{"write d, read a, read b, write d/a, write d/b", true}}},
		{src: `link a b`, want: []fx{{"read a, write b", true}}},
		{src: `unlink f`, want: []fx{{"write f", true}}},
		{src: `shred -u -n 3 f`, want: []fx{{"write f", true}}},
		{src: `mkfifo -m 600 p`, want: []fx{{"write p", true}}},
		// The files actually opened.
		{src: `_POSIX2_VERSION=199209 uniq +1 f /outside/x`, want: []fx{{"read +1, write f, read /outside/x, read f, write /outside/x", true}}},
		{src: `sed -i'.git/hooks/*' 's/a/a/' pre-commit`, want: []fx{{"write pre-commit, write .git/hooks/pre-commit", true}}},
		{src: `sed -i'/outside/*' 's/a/a/' README.md`, want: []fx{{"write README.md, write /outside/README.md", true}}},
		{src: `sed -i.bak 's/a/a/' d/f`, want: []fx{{"write d/f, write d/f.bak", true}}},
		{src: `sed -i'old_*' 's/a/a/' d/f`, want: []fx{{"write d/f, write d/old_f", true}}},
		{src: `sed --in-place=.orig -e p f`, want: []fx{{"write f, write f.orig", true}}},
		{src: `xxd -group 4 f /outside/x`, want: []fx{{"read f, write /outside/x", true}}},
		{src: `cp README.md dst/`, want: []fx{{"read README.md, write dst/, write dst/README.md", true}}},
		{src: `cp -r A B dst`, want: []fx{{"tree A, tree B, write dst, write dst/A, write dst/B", true}}},
		{src: `split -l 100 big part-`, want: []fx{{"read big, write part-aa, write part-", true}}},
		{src: `split big`, want: []fx{{"read big, write .", true}}},
		{src: `dd if=/dev/zero of=disk.img bs=1M count=1`, want: []fx{{"read /dev/zero, write disk.img", true}}},
		{src: `dd if=in.bin`, want: []fx{{"read in.bin", false}}},
		{src: `dd if=in.bin > out.bin`, want: []fx{{"read in.bin, write out.bin", true}}},
		{src: `dd of=$DEV`, want: []fx{{"write ~$DEV", true}}},

		// sed.
		{src: `sed -i.bak 's/a/b/' f`, want: []fx{{"write f, write f.bak", true}}},
		{src: `sed -ie 's/a/b/' f`, want: []fx{{"write f, write fe", true}}}, // suffix "e"; the script is the operand
		{src: `sed --in-place -e 's/a/b/' -e 's/c/d/' f g`, want: []fx{{"write f, write g", true}}},
		{src: `sed --in s/a/b/ f`, want: []fx{{"write f", true}}},
		{src: `sed -i -e 's/a/b/w /etc/x' f`, want: []fx{{"write /etc/x, write f", true}}},
		{src: `sed 's/[/]/x/w o' f`, want: []fx{{"write o, read f", true}}},
		{src: `sed -i 's/x/id/e' f`, want: []fx{{"write f", false}}},
		{src: `sed -i '1e id' f`, want: []fx{{"write f", false}}},
		{src: `sed -i -f script.sed f`, want: []fx{{"read script.sed, write f", false}}},
		{src: `sed -i "s/$A/$B/" f.go`, want: []fx{{"write f.go, write ~s/$A/$B/", false}}},
		{src: `sed -i 's/a/b/' "$F"`, want: []fx{{"write ~$F", false}}},
		{src: `sed -n '/start/,/end/{p;q}' f`, want: []fx{{"read f", false}}},

		// xargs and find -exec: operands come from elsewhere.
		{src: `ls | xargs rm`, want: []fx{{"", false}, {"", false}, {"write ~(operands from xargs)", true}}},
		{src: `ls | xargs cat`, want: []fx{{"", false}, {"", false}, {"read ~(operands from xargs)", false}}},
		{src: `ls | xargs grep -i foo`, want: []fx{{"", false}, {"", false}, {"read ~(operands from xargs)", false}}},
		{src: `ls | xargs cp -t dst`, want: []fx{{"", false}, {"", false}, {"write dst, write ~(operands from xargs)", true}}},
		{src: `ls | xargs echo`, want: []fx{{"", false}, {"", false}, {"", false}}},
		{src: `xargs -a list rm`, want: []fx{{"read list", false}, {"write ~(operands from xargs)", true}}},
		{src: `xargs -I{} cp {} /etc/`, want: []fx{{"", false}, {"write ~{}, write /etc/, write ~/etc/{}", true}}},
		{src: `grep -rl x . | xargs sed -i s/a/b/`,
			want: []fx{{"tree .", false}, {"", false}, {"write ~(operands from xargs)", false}}},
		{src: `find build -name '*.o' -delete`, want: []fx{{"write build", false}}},
		{src: `find -delete`, want: []fx{{"write .", false}}},
		{src: `find / -fprint /tmp/l`, want: []fx{{"write /tmp/l", false}}},
		{src: `find . -exec rm {} +`, want: []fx{{"", false}, {"write ~{}", true}}},
		{src: `find . -exec grep "$P" {} \;`, want: []fx{{"", false}, {"read ~{}, read ~$P", false}}},

		// Wrappers: their own options and redirects; the inner command
		// reports the rest.
		{src: `sudo tee /etc/x < in`, want: []fx{{"read in", false}, {"write /etc/x", true}}},
		{src: `/usr/bin/time -o t.txt ls`, want: []fx{{"write t.txt", false}, {"", false}}},
		{src: `nohup make`, want: []fx{{"write nohup.out, write ~/nohup.out", false}, {"", false}}},
		{src: `nohup make | tee log`, want: []fx{{"", false}, {"", false}, {"write log", true}}},
		{src: `(nohup make) > log`, want: []fx{{"write log", true}, {"", false}, {"", false}}},
		{src: `{ nohup make; } >&2`, want: []fx{{"", false}, {"write nohup.out, write ~/nohup.out", false}, {"", false}}},
		{src: `nohup make > log 2>&1`, want: []fx{{"write log", false}, {"", false}}},
		{src: `env -C /etc touch passwd`, want: []fx{{"", false}, {"write passwd", true}}},
		{src: `timeout 5 rm f`, want: []fx{{"", false}, {"write f", true}}},
		{src: `sudo -e /etc/hosts`, want: []fx{{"write /etc/hosts", false}}},
		{src: `bash -c 'rm -rf build'`, want: []fx{{"", false}, {"write build", true}}},
		{src: `echo $(cat /etc/passwd) > x`, want: []fx{{"write x", true}, {"read /etc/passwd", false}}},

		// git.
		{src: `git -C /elsewhere commit -m x`, want: []fx{{"write /elsewhere", false}}},
		{src: `git -C /elsewhere log`, want: []fx{{"", false}}},
		{src: `git -C /a -C b --git-dir=.git commit`, want: []fx{{"write /a/b, write /a/b/.git", false}}},
		{src: `git --work-tree /w --git-dir /w/.git add .`, want: []fx{{"write /w, write /w/.git", false}}},
		{src: `GIT_DIR=/x git commit`, want: []fx{{"write /x", false}}},
		{src: `git commit -am x`, want: []fx{{"", false}}},
		{src: `git -C . branch --show-current`, want: []fx{{"", false}}},
		{src: `git -C /x tag -l`, want: []fx{{"", false}}},
		{src: `git -C /x stash list`, want: []fx{{"", false}}},
		{src: `git -C /x stash`, want: []fx{{"write /x", false}}},
		{src: `git -C /x worktree remove wt`, want: []fx{{"write /x", false}}},
		{src: `git -C /x reflog expire --all`, want: []fx{{"write /x", false}}},
		{src: `git $X commit`, want: []fx{{"write ~$X", false}}},
		{src: `git diff --output=/tmp/d.patch`, want: []fx{{"write /tmp/d.patch, tracked .", false}}},
		{src: `git format-patch -o out HEAD~3`, want: []fx{{"write out", false}}},
		{src: `git clone https://x/y.git /opt/y`, want: []fx{{"write /opt/y", false}}},
		{src: `git clone --depth 1 https://x/y.git`, want: []fx{{"write .", false}}},
		{src: `git init /tmp/r`, want: []fx{{"write /tmp/r", false}}},
		{src: `git worktree add ../wt main`, want: []fx{{"write ../wt", false}}},
		// git config writes the file a later git obeys (git-config(1)).
		// (A value git runs is code: its commands are judged too.)
		{src: `git config core.fsmonitor 'touch x'`, want: []fx{{"write .git/config", false}, {"write x", true}}},
		{src: `git config --unset core.pager`, want: []fx{{"write .git/config", false}}},
		{src: `git config set alias.st status`, want: []fx{{"write .git/config", false}}},
		{src: `git config --worktree a.b c`, want: []fx{{"write .git/config.worktree", false}}},
		{src: `git config --glob core.pager less`, want: []fx{{"write ~/.gitconfig", false}, {"", false}}},
		{src: `git config --system a.b c`, want: []fx{{"write /etc/gitconfig", false}}},
		{src: `git config -f .gitmodules a.b c`, want: []fx{{"write .gitmodules", false}}},
		{src: `git config --file=x.cfg a.b c`, want: []fx{{"write x.cfg", false}}},
		{src: `git -C sub config -e`, want: []fx{{"write sub, write sub/.git/config", false}}},
		{src: `git config a.b $V`, want: []fx{{"write .git/config, write ~$V", false}}},
		{src: `git config user.name`, want: []fx{{"", false}}},
		{src: `git config --get-regexp 'alias\..*'`, want: []fx{{"", false}}},
		{src: `git config --global --list`, want: []fx{{"", false}}},
		{src: `git config list --show-origin`, want: []fx{{"", false}}},
		{src: `git config get --all remote.origin.url`, want: []fx{{"", false}}},

		// Archives and transfers.
		{src: `tar -xf a.tar -C /etc`, want: []fx{{"read a.tar, write /etc", false}}},
		{src: `tar xzf a.tgz`, want: []fx{{"read a.tgz, write .", false}}},
		{src: `tar -xzf a.tgz -O`, want: []fx{{"read a.tgz", false}}},
		{src: `tar czf out.tgz -C src . -C /etc passwd`, want: []fx{{"write out.tgz, tree src/., tree /etc/passwd", false}}},
		{src: `tar -tvf a.tar`, want: []fx{{"read a.tar", false}}},
		{src: `tar -xPf a.tar`, want: []fx{{"read a.tar, write ., write ~(absolute paths in the archive)", false}}},
		{src: `tar --extract --file=a.tar --directory=d`, want: []fx{{"read a.tar, write d", false}}},
		{src: `tar -cf host:/x.tar d`, want: []fx{{"tree d", false}}},
		{src: `unzip a.zip -d out`, want: []fx{{"read a.zip, write out", false}}},
		{src: `unzip -l a.zip`, want: []fx{{"read a.zip", false}}},
		{src: `unzip -o a.zip`, want: []fx{{"read a.zip, write .", false}}},
		{src: `gzip f`, want: []fx{{"write f", false}}},
		{src: `gzip -c f > f.gz`, want: []fx{{"read f, write f.gz", false}}},
		{src: `gunzip -t f.gz`, want: []fx{{"read f.gz", false}}},
		{src: `xz -T 4 -d f.xz`, want: []fx{{"write f.xz", false}}},
		{src: `zstd -o out f`, want: []fx{{"write out, read f", false}}},
		{src: `curl -o out.html https://x`, want: []fx{{"write out.html", false}}},
		{src: `curl -fsSLO https://x/f`, want: []fx{{"write .", false}}},
		{src: `curl --output-dir /tmp -o f https://x`, want: []fx{{"write /tmp, write /tmp/f", false}}},
		{src: `curl -d @secret.json https://x`, want: []fx{{"read secret.json", false}}},
		{src: `curl -F 'f=@/etc/passwd;type=text/plain' https://x`, want: []fx{{"read /etc/passwd", false}}},
		{src: `curl -T ~/.ssh/id_rsa https://x`, opt: home, want: []fx{{"read /home/u/.ssh/id_rsa", false}}},
		{src: `curl -b cookies.txt -c jar.txt https://x`, want: []fx{{"write jar.txt, read cookies.txt", false}}},
		{src: `curl file:///etc/shadow`, want: []fx{{"read /etc/shadow", false}}},
		{src: `curl -w '%output{/etc/x}' https://x`, want: []fx{{"write /etc/x", false}}},
		{src: `curl -s https://x | sh`, want: []fx{{"", false}, {"", false}}},
		{src: `wget https://x`, want: []fx{{"write .", false}}},
		{src: `wget -O - https://x`, want: []fx{{"", false}}},
		{src: `wget -qO f https://x`, want: []fx{{"write f", false}}},
		{src: `wget -P /opt -o log https://x`, want: []fx{{"write log, write /opt", false}}},
		{src: `patch -p1 < fix.diff`, want: []fx{{"write ~(files named in the patch), read fix.diff", false}}},
		{src: `patch f.go fix.diff`, want: []fx{{"write f.go, read fix.diff", false}}},
		{src: `patch --dry-run -p1 -i fix.diff`, want: []fx{{"read fix.diff", false}}},
		{src: `patch -d /etc -p0 -i fix.diff`, want: []fx{{"write /etc, read /etc/fix.diff, write ~(files named in the patch)", false}}},
		{src: `scp a host:b`, want: []fx{{"read a", false}}},
		{src: `scp -i key host:a /etc/b`, want: []fx{{"read key, write /etc/b", false}}},
		{src: `scp ./a:b c`, want: []fx{{"read ./a:b, write c", false}}},
		{src: `rsync -av --delete src/ /backup/`, want: []fx{{"tree src/, write /backup/", false}}},
		{src: `rsync -e ssh host:x .`, want: []fx{{"write .", false}}},
		{src: `rsync --remove-source-files a b`, want: []fx{{"write a, write b", false}}},
		{src: `rsync a`, want: []fx{{"read a", false}}},

		// cd changes where later relative paths resolve (Command.Dir), not
		// the paths themselves.
		{src: `cd /tmp && touch x`, want: []fx{{"", false}, {"write x", true}}},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			s, err := Parse(tt.src, tt.opt)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			var got []fx
			for i := range s.Commands {
				effects, wo := Effects(&s.Commands[i])
				got = append(got, fx{renderEffects(effects), wo})
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %d commands %+v, want %d", len(got), got, len(tt.want))
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("command %d (%q): got %q writesOnly=%v, want %q writesOnly=%v",
						i, s.Commands[i].Argv(), got[i].effects, got[i].writesOnly, tt.want[i].effects, tt.want[i].writesOnly)
				}
			}
		})
	}
}

// TestEffectPositions: an effect carries the offset of the word it came
// from, and says what made it.
func TestEffectPositions(t *testing.T) {
	src := `cp --target-directory=d a > log`
	s, err := Parse(src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	effects, _ := Effects(&s.Commands[0])
	want := []struct {
		text, at, via string
	}{{"d", "--target-directory=d", "cp"}, {"a", "a", "cp"}, {"d/a", "--target-directory=d", "cp"}, {"log", "log", "redirect"}}
	if len(effects) != len(want) {
		t.Fatalf("got %s", renderEffects(effects))
	}
	for i, w := range want {
		e := effects[i]
		if e.Path.Text != w.text || !strings.HasPrefix(src[e.Path.Offset:], w.at) || e.Via != w.via {
			t.Errorf("effect %d: got %q at %d (%q) via %q, want %q at %q via %q",
				i, e.Path.Text, e.Path.Offset, src[e.Path.Offset:], e.Via, w.text, w.at, w.via)
		}
	}
}

// TestWrapperDir: a wrapper that changes directory moves the command it
// runs (env -C, sudo -D, sudo -i, find -execdir); the shell's own
// directory does not change.
func TestWrapperDir(t *testing.T) {
	tests := []struct {
		src     string
		cmd     int
		dir     string
		dynamic bool
	}{
		{`env -C /etc touch passwd`, 1, "/etc", false},
		{`env --chdir=sub -i touch q`, 1, "sub", false},
		{`env -iC sub touch q`, 1, "sub", false},
		{`cd a && env -C b touch q`, 2, "a/b", false},
		{`env -C /etc true; touch q`, 2, "", false},
		{`env -u X touch q`, 1, "", false},
		{`sudo -D /etc -u r touch x`, 1, "/etc", false},
		{`sudo -u r --chdir /srv touch x`, 1, "/srv", false},
		{`sudo -i touch x`, 1, "", true},
		{`env -C "$D" touch x`, 1, "", true},
		{`find /etc -execdir touch y \;`, 1, "", true},
		{`find /etc -exec touch y \;`, 1, "", false},
	}
	for _, tt := range tests {
		s, err := Parse(tt.src, Options{})
		if err != nil {
			t.Fatalf("%s: %v", tt.src, err)
		}
		c := s.Commands[tt.cmd]
		if c.Dir != tt.dir || c.DirDynamic != tt.dynamic {
			t.Errorf("%s: command %d %q: Dir=%q DirDynamic=%v, want %q %v",
				tt.src, tt.cmd, c.Argv(), c.Dir, c.DirDynamic, tt.dir, tt.dynamic)
		}
	}
}

// TestXargsTrailing: xargs appends operands unless -I/-i replaces a
// string; the replace options are xargs's own, not the command's.
func TestXargsTrailing(t *testing.T) {
	tests := []struct {
		src      string
		trailing bool
	}{
		{`xargs rm`, true},
		{`xargs grep -i foo`, true},
		{`xargs -0 grep -I foo`, true},
		{`xargs -I{} cp {} dst`, false},
		{`xargs -I % mv % %.bak`, false},
		{`xargs -i cp {} dst`, false},
		{`xargs --replace=@ cp @ dst`, false},
	}
	for _, tt := range tests {
		s, err := Parse(tt.src, Options{})
		if err != nil {
			t.Fatalf("%s: %v", tt.src, err)
		}
		if got := s.Commands[1].TrailingArgs; got != tt.trailing {
			t.Errorf("%s: TrailingArgs=%v, want %v", tt.src, got, tt.trailing)
		}
	}
}

// TestReadFilters: what grep's and rg's options leave out below a
// directory they read whole. Only what both greps (GNU, BSD) certainly
// leave out is skipped.
func TestReadFilters(t *testing.T) {
	tests := []struct {
		src    string
		hidden bool
		rel    string
		dir    bool
		want   cmdmodel.EntryVerdict
	}{
		{`grep -r x .`, false, ".env", false, cmdmodel.EntryDefault},
		{`grep -r --exclude=.env x .`, false, ".env", false, cmdmodel.EntrySkip},
		{`grep -r --exclude=.env x .`, false, "sub/.env", false, cmdmodel.EntrySkip},
		{`grep -r --exclude=.env x .`, false, ".env.local", false, cmdmodel.EntryDefault},
		{`grep -r --exclude='.env*' x .`, false, "a/.env.local", false, cmdmodel.EntrySkip},
		{`grep -r --exclude '*.pem' x .`, false, "k.pem", false, cmdmodel.EntrySkip},
		{`grep -r --exclude='[.]env' x .`, false, ".env", false, cmdmodel.EntryDefault}, // brackets: not read
		{`grep -r --exclude=.env --include=.env x .`, false, ".env", false, cmdmodel.EntryDefault},
		{`grep -r --include=.env --exclude=.env x .`, false, ".env", false, cmdmodel.EntrySkip},
		{`grep -r --include='*.go' x .`, false, ".env", false, cmdmodel.EntrySkip},
		{`grep -r --include='*.go' x .`, false, "a.go", false, cmdmodel.EntryDefault},
		{`grep -r --include='s*' x .`, false, "sub/.env", false, cmdmodel.EntryDefault}, // `*` may cross "/" in GNU's suffix match
		{`grep -r --include='[a]*' x .`, false, ".env", false, cmdmodel.EntryDefault},
		{`grep -r --exclude=x --include='*.go' x .`, false, ".env", false, cmdmodel.EntryDefault}, // GNU: first is --exclude
		{`grep -r --exclude-dir=secrets x .`, false, "secrets", true, cmdmodel.EntrySkip},
		{`grep -r --exclude-dir=secrets x .`, false, "a/secrets", true, cmdmodel.EntrySkip},
		{`grep -r --exclude-dir=secrets x .`, false, "secrets", false, cmdmodel.EntryDefault},
		{`grep -r --exclude-dir=secrets --include-dir=x x .`, false, "secrets", true, cmdmodel.EntryDefault},
		{`grep -r --exclude=.env x $D`, false, ".env", false, cmdmodel.EntrySkip},
		{`grep -r --exclude="$X" x .`, false, ".env", false, cmdmodel.EntryDefault},

		{`rg x`, true, ".env", false, cmdmodel.EntryDefault},
		{`rg --hidden x`, false, ".env", false, cmdmodel.EntryDefault},
		{`rg -. x`, false, ".env", false, cmdmodel.EntryDefault},
		{`rg -uu x`, false, ".env", false, cmdmodel.EntryDefault},
		{`rg -u x`, true, ".env", false, cmdmodel.EntryDefault},
		{`rg -u -u x`, false, ".env", false, cmdmodel.EntryDefault},
		{`rg --no-ignore x`, true, ".env", false, cmdmodel.EntryDefault},
		{`rg -tpy x`, false, ".env", false, cmdmodel.EntryDefault},
		{`rg --ignore-file ig x`, false, ".env", false, cmdmodel.EntryDefault},
		{`rg -g '*.py' x`, true, ".env", false, cmdmodel.EntrySkip},
		{`rg -g '*.py' x`, true, "a.py", false, cmdmodel.EntryListed},
		{`rg -g '*.py' x`, true, ".config", true, cmdmodel.EntryDefault},
		{`rg -g '.*' x`, true, ".env", false, cmdmodel.EntryListed},
		{`rg -g '!.env' --hidden x`, false, ".env", false, cmdmodel.EntrySkip},
		{`rg -g '!.env' -g '.e*' x`, true, ".env", false, cmdmodel.EntryListed},
		{`rg --iglob '!.ENV' -. x`, false, ".env", false, cmdmodel.EntrySkip},
		{`rg -g '!.ENV' -. x`, false, ".env", false, cmdmodel.EntryDefault},
		{`rg -g '{a,b}' x`, true, ".env", false, cmdmodel.EntryListed},
		{`rg -g '!secrets/' x`, true, "secrets", true, cmdmodel.EntrySkip},
		{`rg -g '!secrets/' x`, true, "secrets", false, cmdmodel.EntryDefault},
		{`rg -g '!**/.env' -. x`, false, ".env", false, cmdmodel.EntryDefault},
	}
	for _, tt := range tests {
		s, err := Parse(tt.src, Options{})
		if err != nil {
			t.Fatalf("%s: %v", tt.src, err)
		}
		effects, _ := Effects(&s.Commands[0])
		tree := -1
		for i, e := range effects {
			if e.Recursive {
				tree = i
			}
		}
		if tree < 0 {
			t.Errorf("%s: no tree read in %s", tt.src, renderEffects(effects))
			continue
		}
		f := effects[tree].Filter
		hidden, got := false, cmdmodel.EntryDefault
		if f != nil {
			hidden = f.Hidden
			if f.Entry != nil {
				got = f.Entry(tt.rel, tt.dir)
			}
		}
		if hidden != tt.hidden || got != tt.want {
			t.Errorf("%s: %s (dir %v): hidden %v verdict %d, want %v %d", tt.src, tt.rel, tt.dir, hidden, got, tt.hidden, tt.want)
		}
	}
}

// TestEffectsTree: a write that also puts entries below its path under
// names the command does not give (FileEffect.Tree) says where they come
// from: cp -r/-a/-R, mv, rsync -r/-a from a source directory; tar -x and
// unzip from an archive (names only known at run time, shown as "?").
func TestEffectsTree(t *testing.T) {
	tests := []struct{ src, want string }{
		{`cp -r examples/. .`, ". <- examples/."},
		{`cp -rT examples .`, ". <- examples"},
		{`cp -r a b`, "b <- a, b/a <- a"},
		{`cp -r A B dst`, "dst/A <- A, dst/B <- B"},
		{`cp -R -t d a/.`, "d <- a/."},
		{`cp -aL src/ dst`, "dst <- src/ (follow), dst/src <- src/ (follow)"},
		{`cp a b`, ""},
		{`mv examples build/x`, "build/x <- examples, build/x/examples <- examples"},
		{`mv -T a b`, "b <- a"},
		{`mv a b c/`, "c/a <- a, c/b <- b"},
		{`rsync -a examples/ .`, ". <- examples/"},
		{`rsync -a examples .`, "./examples <- examples"},
		{`rsync -aR src/a /backup`, "/backup/src/a <- src/a"},
		{`rsync -aL host:x .`, ". <- ? (follow)"},
		{`rsync a b`, ""},
		{`tar xzf dist.tgz -C build/`, "build/ <- ?"},
		{`tar xf a.tar`, ". <- ?"},
		{`tar tf a.tar`, ""},
		{`unzip a.zip -d out`, "out <- ?"},
		{`unzip -l a.zip`, ""},
	}
	for _, tt := range tests {
		s, err := Parse(tt.src, Options{})
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.src, err)
		}
		var got []string
		for i := range s.Commands {
			effects, _ := Effects(&s.Commands[i])
			for _, e := range effects {
				if e.Tree == nil {
					continue
				}
				from := e.Tree.From.Text
				if from == "" && !e.Tree.From.Dynamic {
					from = "?"
				}
				g := e.Path.Text + " <- " + from
				if e.Tree.Follow {
					g += " (follow)"
				}
				got = append(got, g)
			}
		}
		if g := strings.Join(got, ", "); g != tt.want {
			t.Errorf("%s: trees %q, want %q", tt.src, g, tt.want)
		}
	}
}
