package shellparse

import (
	"errors"
	"testing"
)

// FuzzParse: no input makes Parse or Effects panic; a script that parses
// has every command, word and effect placed inside the source, and one
// that does not gets an *Error with a known code.
func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"",
		"ls -la",
		"cat <<'EOF' > f.py\nprint('hi')\nEOF\n",
		"cat <<EOF\n$(rm -rf /)\nEOF",
		"bash <<EOF\nrm -rf build\nEOF\n",
		"cat <<-EOF | sh\n\tcurl x\n\tEOF\n",
		"echo $(echo $(echo $(echo deep)))",
		"echo $(echo `echo $(echo mixed)`)",
		"diff <(sort a) <(sort b) > d",
		"echo 'unterminated",
		"echo \"unterminated $(",
		"echo $((1 +",
		"bash -c 'sh -c \"bash -c \\\"rm -rf x\\\"\"'",
		"eval \"$(curl -s x)\"",
		"sudo -u root env -C /etc xargs -I{} sh -c 'tee {} < /dev/null'",
		"find . -name '*.go' -execdir sed -i 's/a/b/' {} + -delete",
		"f() { rm -rf \"$1\"; }; f /",
		"for f in *.txt; do mv \"$f\" \"${f%.txt}.md\"; done 2>/dev/null",
		"case $x in a) cp a b;; *) rm c;; esac",
		"[[ -f x ]] && cat x || echo no >> log",
		"x=1 y=$(id) cmd >&- 2>&1 <> rw 3< in",
		"tar czf - -C src . | ssh host 'tar xzf - -C /opt'",
		"git -C /x -c a=b --git-dir= commit; GIT_DIR=$D git push",
		"curl -fsSL https://x -o- | bash -s -- --flag",
		"sed -n -e '/x/{w out' -e 'p}' -i.bak f",
		"xxd -r -s -1 -cols",
		"dd if= of=",
		"chmod -- -w -R",
		"cp -t",
		"tar -C",
		"jq --arg a",
		"rmdir -p ////a//b",
		"cd ~nobody && ln -s ../.. x",
		"watch -n1 'ls > out'",
		"time -o f ls; /usr/bin/time -o",
		"nohup",
		"\\rm -rf '/'\"\"",
		"a\\\nb > c",
		"echo \xe2\x80\x8b > zero-width",
		"cp -$'\\xff't $'\\xe2' a; tar $'\\xff'f a",
		"ls\r#; rm -rf ~/",
		"ls -la # see \\\nrm -rf ~/",
		"echo $((1)) #\\\ntouch x",
		"a[$(rm -rf /)]=1; a[`id`]+=1; a[${x:-$(id)}]=1; a=([$(id)]=1)",
		"x='a[$(touch p)]'; echo $((x)) ${y[$x]} ${!x} ${x@P} ${y:x:1}; (( x )); [[ x -eq 0 ]]",
		"for ((i=x;0;)); do :; done; test -v \"$x\"; [ -v 'a[$(touch p)]' ]; let 'a[$(touch p)]=1'",
		"declare -i n; declare -n r=n; read n; printf -v r %d 1; mapfile -C 'rm x' -c 1 arr",
		"for PATH in bin; do git status; done; read -r HOME; unset LD_PRELOAD; (( GIT_DIR = 1 ))",
		"ln -s ~/.bashrc t; echo pwn >> t; f() { cat t; }; (tar xf a &); f",
		"trap 'rm -rf /' EXIT; shopt -s lastpipe; echo x | read y",
		"((((((1))))))",
		"[[ ! ! ! ( x -eq 1 ) ]]",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, src string) {
		s, err := Parse(src, Options{Home: "/home/u"})
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("Parse(%q) error is %T, not *Error: %v", src, err, err)
			}
			switch pe.Code {
			case CodeParse, CodeTooLarge, CodeInvalid, CodeTooDeep:
			default:
				t.Fatalf("Parse(%q): unknown code %q", src, pe.Code)
			}
			return
		}
		inside := func(what string, off int) {
			if off < 0 || off > len(src) {
				t.Fatalf("Parse(%q): %s offset %d outside [0, %d]", src, what, off, len(src))
			}
		}
		for i := range s.Commands {
			c := &s.Commands[i]
			inside("command", c.Offset)
			for _, w := range c.Args {
				inside("word", w.Offset)
			}
			if c.Parent >= len(s.Commands) || c.Inner >= len(s.Commands) {
				t.Fatalf("Parse(%q): command %d links outside the script", src, i)
			}
			effects, writesOnly := Effects(c)
			for _, e := range effects {
				inside("effect", e.Path.Offset)
			}
			if writesOnly && len(effects) == 0 {
				t.Fatalf("Parse(%q): command %d is writesOnly with no effect", src, i)
			}
		}
	})
}
