package cmdmodel

import "strings"

// This file is find's model: how GNU find (findutils 4.9) reads its words
// (find(1)). Every reader of a find command line goes through readFind:
// its file effects (findOps), the commands its -exec family runs (the
// shell reader's FindExecs), what it prints (findOutput), whether it is
// read-only (findArgs) and whether it deletes (FindDeletes, for the
// danger layer, DeletesTree and DestroysProjectWork); the danger layer
// reads its start points with FindSplit.

// FindSplit splits find's words after its name (findArgs, without the
// name) as GNU find reads them (find(1) and findutils 4.9 util.c
// looks_like_expression): first the leading options -H, -L, -P, -D LIST,
// -OLEVEL and an ending `--`; then the start points, every word up to the
// first that begins the expression: a word starting with `-` other than
// `-` itself, or `(` or `!` alone. `,` and `)` are start points there
// (they are operators only inside the expression), and so are `-`, `(x`
// and `!x`. It returns the index of the first start point and of the
// first expression word; no start point means ".". Every reader of
// find's start points goes through it (danger, effects, what find
// prints).
func FindSplit[T any](args []T, text func(T) string) (start, expr int) {
	i := 0
	for i < len(args) {
		t := text(args[i])
		if t == "-H" || t == "-L" || t == "-P" || strings.HasPrefix(t, "-O") {
			i++
		} else if t == "-D" {
			i += 2
		} else if t == "--" {
			i++
			break
		} else {
			break
		}
	}
	i = min(i, len(args))
	start = i
	for ; i < len(args); i++ {
		t := text(args[i])
		if strings.HasPrefix(t, "-") && t != "-" || t == "(" || t == "!" {
			break
		}
	}
	return start, i
}

// findOneArg are the primaries that take the next word as their argument
// (find(1) TESTS and ACTIONS, findutils 4.9); -fprintf takes two. A word
// such a primary takes is never read as a primary itself (`-name
// -delete` names a file "-delete").
var findOneArg = map[string]bool{
	"-amin": true, "-anewer": true, "-atime": true, "-cmin": true, "-cnewer": true, "-context": true,
	"-ctime": true, "-fstype": true, "-gid": true, "-group": true, "-ilname": true, "-iname": true,
	"-inum": true, "-ipath": true, "-iregex": true, "-iwholename": true, "-links": true, "-lname": true,
	"-maxdepth": true, "-mindepth": true, "-mmin": true, "-mtime": true, "-name": true, "-newer": true,
	"-path": true, "-perm": true, "-regex": true, "-regextype": true, "-samefile": true, "-size": true,
	"-type": true, "-uid": true, "-used": true, "-user": true, "-wholename": true, "-xtype": true,
	"-fprint": true, "-fprint0": true, "-fls": true, "-printf": true, "-files0-from": true,
}

// findPrim is one primary of find's expression, an operator or a word
// find does not know, with the words it takes: args[at] is the primary,
// args[at+1:end] its arguments (for the -exec family the command, then
// its `;` or `+` when terminated).
type findPrim struct {
	name       string
	at, end    int
	terminated bool // -exec family: ends with `;` or `+`
}

// findLine is a find command line: args[:start] the leading options,
// args[start:expr] the start points, then the expression's primaries.
type findLine struct {
	start, expr int
	prims       []findPrim
}

// isFindExec reports the primaries that run a command: -exec, -execdir,
// -ok, -okdir.
func isFindExec(name string) bool {
	return name == "-exec" || name == "-execdir" || name == "-ok" || name == "-okdir"
}

// readFind reads find's words after its name by GNU find's grammar.
func readFind[T any](args []T, text func(T) string) findLine {
	l := findLine{}
	l.start, l.expr = FindSplit(args, text)
	for i := l.expr; i < len(args); i++ {
		p := findPrim{name: text(args[i]), at: i, end: i + 1}
		switch {
		case isFindExec(p.name):
			j := i + 1
			for j < len(args) && text(args[j]) != ";" && text(args[j]) != "+" {
				j++
			}
			p.terminated = j < len(args)
			p.end = min(j+1, len(args))
		case p.name == "-fprintf":
			p.end = min(i+3, len(args))
		case findOneArg[p.name]:
			p.end = min(i+2, len(args))
		}
		l.prims = append(l.prims, p)
		i = p.end - 1
	}
	return l
}

// has reports whether a primary of the expression is one of names.
func (l findLine) has(names ...string) bool {
	for _, p := range l.prims {
		for _, n := range names {
			if p.name == n {
				return true
			}
		}
	}
	return false
}

// FindExec is a command find runs (-exec, -execdir, -ok, -okdir): its
// words are args[From:To] of the words given to FindExecs.
type FindExec struct {
	Action   string
	From, To int
}

// FindExecs returns the commands find runs, args being find's words after
// its name. An empty command is left out.
func FindExecs(args []Word) []FindExec {
	var out []FindExec
	for _, p := range readFind(args, wordText).prims {
		if !isFindExec(p.name) {
			continue
		}
		to := p.end
		if p.terminated {
			to--
		}
		if to > p.at+1 {
			out = append(out, FindExec{Action: p.name, From: p.at + 1, To: to})
		}
	}
	return out
}

func wordText(w Word) string { return w.Text }

// FindDeletes reports whether find's words after its name hold -delete.
func FindDeletes(args []Word) bool {
	return readFind(args, wordText).has("-delete")
}
