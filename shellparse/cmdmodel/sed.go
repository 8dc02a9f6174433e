package cmdmodel

import "strings"

// This file is sed's model of its script (GNU sed manual, "sed scripts";
// sed(1)): readSed is the one reader of a sed program. The effects
// (sedProgram) and the read-only check (sedPrintOnly) read what it found.

// sedCmd is one command of a sed script: its letter, the file it reads
// or writes (r R w W, and s's w flag), and for s its flags.
type sedCmd struct {
	name  byte
	file  string
	flags string
}

// sedScript is a sed program as readSed reads it. ok is false for a
// program it does not understand (GNU sed would refuse it, or it is not
// read here). plain is false when the program uses a form that sed
// implementations read differently, or that only a lenient reading takes:
// a delimiter that is a letter, a digit or not printable, a regex whose bracket expression holds the delimiter (BSD sed and GNU
// sed may split it elsewhere), an escaped newline inside a regex or
// replacement, characters after a command, a missing second address, a
// step (`first~step`, `addr,~N`, `addr,+N`) without its number.
type sedScript struct {
	cmds      []sedCmd
	ok, plain bool
}

// readSed reads a sed program.
func readSed(p string) sedScript {
	out := sedScript{plain: true}
	i, n := 0, len(p)
	isDigit := func(c byte) bool { return c >= '0' && c <= '9' }
	digits := func() int {
		j := i
		for i < n && isDigit(p[i]) {
			i++
		}
		return i - j
	}
	space := func() {
		for i < n && (p[i] == ' ' || p[i] == '\t') {
			i++
		}
	}
	line := func() string {
		j := i
		for i < n && p[i] != '\n' {
			i++
		}
		return p[j:i]
	}
	// part reads up to an unescaped delimiter d, GNU's way: in a regex a
	// bracket expression may hold d (`s/[/]/x/`). Where the first
	// unescaped d is elsewhere, or a backslash escapes a newline, the
	// script is not plain.
	part := func(d byte, regex bool) bool {
		if d <= ' ' || d >= 0x7f || d >= '0' && d <= '9' || d >= 'a' && d <= 'z' || d >= 'A' && d <= 'Z' {
			out.plain = false // a letter or digit reads as flags and commands elsewhere
		}
		naive := -1
		for j := i; j < n; j++ {
			if p[j] == '\\' {
				j++
			} else if p[j] == d || p[j] == '\n' {
				naive = j
				break
			}
		}
		for i < n {
			c := p[i]
			i++
			switch {
			case c == '\\':
				if i < n && p[i] == '\n' {
					out.plain = false
				}
				i++
			case c == d:
				if i-1 != naive {
					out.plain = false
				}
				return true
			case c == '\n':
				return false
			case c == '[' && regex:
				if i < n && p[i] == '^' {
					i++
				}
				if i < n && p[i] == ']' {
					i++
				}
				for i < n && p[i] != ']' {
					if p[i] == '[' && i+1 < n && strings.IndexByte(".:=", p[i+1]) >= 0 {
						end := strings.Index(p[i+2:], string(p[i+1])+"]")
						if end < 0 {
							return false
						}
						i += end + 4
						continue
					}
					i++
				}
				if i >= n {
					return false
				}
				i++
			}
		}
		return false
	}
	// address reads one address (none is fine); second: after a comma.
	address := func(second bool) bool {
		if i >= n {
			return true
		}
		switch c := p[i]; {
		case isDigit(c):
			digits()
			if !second && i < n && p[i] == '~' {
				i++
				if digits() == 0 {
					out.plain = false
				}
			}
		case c == '$':
			i++
		case second && (c == '+' || c == '~'):
			i++
			if digits() == 0 {
				out.plain = false
			}
		case c == '/' || c == '\\':
			i++
			if c == '\\' {
				if i >= n {
					return false
				}
				c = p[i]
				i++
			}
			if !part(c, true) {
				return false
			}
			for i < n && (p[i] == 'I' || p[i] == 'M') {
				i++
			}
		default:
			if second {
				out.plain = false
			}
		}
		return true
	}
	// end: after a command only blanks, then `;`, a newline, `}`, `#` or
	// the end (GNU sed: "extra characters after command").
	end := func() {
		space()
		if i < n && strings.IndexByte(";\n}#", p[i]) < 0 {
			out.plain = false
		}
	}
	depth := 0
	for {
		for i < n && strings.IndexByte(" \t\n;", p[i]) >= 0 {
			i++
		}
		if i >= n {
			break
		}
		switch p[i] {
		case '#':
			line()
			continue
		case '}':
			i++
			depth--
			end()
			continue
		}
		if !address(false) {
			return out
		}
		space()
		if i < n && p[i] == ',' {
			i++
			space()
			if !address(true) {
				return out
			}
		}
		for i < n && strings.IndexByte(" \t!", p[i]) >= 0 {
			i++
		}
		if i >= n {
			return out
		}
		cmd := sedCmd{name: p[i]}
		i++
		switch cmd.name {
		case '{':
			depth++
			out.cmds = append(out.cmds, cmd)
			continue
		case '=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F':
			end()
		case 'q', 'Q', 'l', 'L':
			space()
			digits()
			end()
		case ':', 'b', 't', 'T', 'v':
			for i < n && p[i] != ';' && p[i] != '\n' {
				i++
			}
		case 'a', 'i', 'c':
			for i < n && p[i] != '\n' {
				if p[i] == '\\' {
					i++
				}
				i++
			}
		case 'r', 'R', 'w', 'W':
			space()
			if cmd.file = line(); cmd.file == "" {
				return out
			}
		case 'e':
			line()
		case 's', 'y':
			if i >= n || p[i] == '\n' || p[i] == '\\' {
				return out
			}
			d := p[i]
			i++
			if !part(d, cmd.name == 's') || !part(d, false) {
				return out
			}
		flags:
			for cmd.name == 's' && i < n {
				switch f := p[i]; {
				case strings.IndexByte("gpiImMe", f) >= 0 || isDigit(f):
					cmd.flags += string(f)
					i++
				case f == 'w':
					cmd.flags += "w"
					i++
					space()
					if cmd.file = line(); cmd.file == "" {
						return out
					}
				default:
					break flags
				}
			}
			end()
		default:
			return out
		}
		out.cmds = append(out.cmds, cmd)
	}
	if depth != 0 {
		out.plain = false
	}
	out.ok = true
	return out
}

// sedProgram scans a sed program for the commands that reach beyond the
// input: `r`/`R` read a file, `w`/`W` and the `w` flag of `s` write one,
// `e` and the `e` flag of `s` run a command. ok is false for a program it
// does not understand, which the caller treats like one that runs a
// command.
func sedProgram(p string) (reads, writes []string, runs, ok bool) {
	s := readSed(p)
	if !s.ok {
		return nil, nil, false, false
	}
	for _, c := range s.cmds {
		switch {
		case c.name == 'r' || c.name == 'R':
			reads = append(reads, c.file)
		case c.name == 'w' || c.name == 'W' || c.name == 's' && c.file != "":
			writes = append(writes, c.file)
		case c.name == 'e' || c.name == 's' && strings.Contains(c.flags, "e"):
			runs = true
		}
	}
	return reads, writes, runs, true
}

// sedPrintOnly reports whether a sed script only selects lines and prints
// (sed(1) and the GNU sed manual, "sed scripts"), read plain (readSed):
// addresses (N, $, /re/ and \cREc with I/M, first~step, addr,+N,
// addr,~N, !), blocks { }, comments, and the commands p P l = q Q n N d D
// g G h H x z F and s/re/repl/ with the flags g p i I m M and a number.
// Everything else is refused, among them w W e r R (write, run, read
// files), a i c y, labels and branches, and s with the w or e flag.
func sedPrintOnly(script string) bool {
	s := readSed(script)
	if !s.ok || !s.plain {
		return false
	}
	for _, c := range s.cmds {
		switch c.name {
		case '{', 'p', 'P', '=', 'n', 'N', 'd', 'D', 'g', 'G', 'h', 'H', 'x', 'z', 'F', 'l', 'q', 'Q':
		case 's':
			if strings.ContainsAny(c.flags, "ew") {
				return false
			}
		default:
			return false
		}
	}
	return true
}
