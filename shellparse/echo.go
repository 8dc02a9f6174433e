package shellparse

import "strings"

// What echo and printf print, decoded as the shells that run them do.
//
// The readers follow the sources, not a generic printf: bash 5.2's
// lib/sh/strtrans.c ansicstr (echo -e and xpg_echo, flags 1),
// builtins/printf.def tescape (printf's format and %b arguments), and
// dash 0.5's src/bltin/printf.c conv_escape_str and conv_escape (its echo,
// which always interprets escapes, and %b). They differ: echo -e reads
// `\0` and up to three more octal digits but leaves `\1`…`\7` alone;
// %b reads `\0NNN` and `\NNN`; a printf format reads `\NNN` of at most
// three digits in all (`\0145` is `\014` then `5`); `\c` ends all output
// in echo and %b and is plain text in a format; dash has no `\x`, `\e`
// or `\u` (it has `\e`). TestEchoAgainstShells compares each reader with the real bash
// and dash on generated strings.
//
// Where the output depends on more than the text, a reader says it does
// not know: `\u`/`\U` above 0x7f (converted through the locale's
// character set), a NUL byte in the output (what a shell reading it does
// with it differs), a printf conversion other than plain %s, %b and %%.

// escReader is one of the backslash-escape readers.
type escReader int

const (
	escBashEcho   escReader = iota // bash echo -e, or echo under xpg_echo
	escBashB                       // bash printf %b argument
	escBashFormat                  // bash printf format
	escDashEcho                    // dash echo, and dash printf %b
	escDashFormat                  // dash printf format
)

// decodeEscapes returns s with its backslash escapes replaced as reader
// does. stop is true when a `\c` ends all output there. ok is false when
// the result is not known from the text alone.
func decodeEscapes(s string, reader escReader) (out string, stop, ok bool) {
	var sb strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		i++
		if c != '\\' || i == len(s) {
			sb.WriteByte(c)
			continue
		}
		if reader == escDashEcho || reader == escDashFormat {
			v, n, stp := dashEscape(s[i:], reader == escDashFormat)
			switch {
			case stp:
				return sb.String(), true, !strings.Contains(sb.String(), "\x00")
			case n == 0:
				sb.WriteByte('\\') // no escape: the next byte is read afresh
			default:
				sb.WriteByte(v)
				i += n
			}
			continue
		}
		e := s[i]
		i++
		switch e {
		case 'a':
			sb.WriteByte('\a')
		case 'b':
			sb.WriteByte('\b')
		case 'e', 'E':
			sb.WriteByte(0x1b)
		case 'f':
			sb.WriteByte('\f')
		case 'n':
			sb.WriteByte('\n')
		case 'r':
			sb.WriteByte('\r')
		case 't':
			sb.WriteByte('\t')
		case 'v':
			sb.WriteByte('\v')
		case '\\':
			sb.WriteByte('\\')
		case '0', '1', '2', '3', '4', '5', '6', '7':
			if reader == escBashEcho && e != '0' {
				sb.WriteByte('\\') // echo -e: \1 is not an escape
				sb.WriteByte(e)
				break
			}
			more := 2 // tescape: \NNN, at most three digits in all
			if e == '0' && reader != escBashFormat {
				more = 3 // echo -e and %b: \0 and up to three more
			}
			v := int(e - '0')
			for ; more > 0 && i < len(s) && s[i] >= '0' && s[i] <= '7'; more-- {
				v = v*8 + int(s[i]-'0')
				i++
			}
			sb.WriteByte(byte(v))
		case 'x':
			v, n := 0, 0
			for ; n < 2 && i < len(s) && isHex(s[i]); n++ {
				v = v*16 + hexVal(s[i])
				i++
			}
			if n == 0 {
				sb.WriteString(`\x`)
				break
			}
			sb.WriteByte(byte(v))
		case 'u', 'U':
			max := 4
			if e == 'U' {
				max = 8
			}
			v, n := 0, 0
			for ; n < max && i < len(s) && isHex(s[i]); n++ {
				v = v*16 + hexVal(s[i])
				i++
			}
			if n == 0 {
				sb.WriteByte('\\')
				sb.WriteByte(e)
				break
			}
			if v > 0x7f {
				return "", false, false // the locale converts it
			}
			sb.WriteByte(byte(v))
		case '\'', '"', '?':
			if reader != escBashFormat {
				sb.WriteByte('\\')
			}
			sb.WriteByte(e)
		case 'c':
			if reader != escBashFormat {
				return sb.String(), true, !strings.Contains(sb.String(), "\x00")
			}
			sb.WriteString(`\c`)
		default:
			sb.WriteByte('\\')
			sb.WriteByte(e)
		}
	}
	out = sb.String()
	return out, false, !strings.Contains(out, "\x00")
}

// dashEscape reads one escape of dash's conv_escape_str (or, in a printf
// format, conv_escape) at s (s[0] is the byte after the backslash): its
// value and how many bytes it takes (0 when it is no escape), or stop for
// `\c`.
func dashEscape(s string, format bool) (v byte, n int, stop bool) {
	switch s[0] {
	case 'c':
		if format {
			return 0, 0, false
		}
		return 0, 0, true
	case '\\':
		return '\\', 1, false
	case 'a':
		return '\a', 1, false
	case 'b':
		return '\b', 1, false
	case 'e':
		return 0x1b, 1, false // dash 0.5.12
	case 'f':
		return '\f', 1, false
	case 'n':
		return '\n', 1, false
	case 'r':
		return '\r', 1, false
	case 't':
		return '\t', 1, false
	case 'v':
		return '\v', 1, false
	}
	i := 0
	if !format && s[0] == '0' && len(s) > 1 && s[1] >= '0' && s[1] <= '7' {
		i = 1 // %b's \0NNN: the 0 is skipped, then \NNN
	}
	if s[i] < '0' || s[i] > '7' {
		return 0, 0, false
	}
	x := 0
	j := i
	for ; j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7'; j++ {
		x = x*8 + int(s[j]-'0')
	}
	return byte(x), j, false
}

// bashEcho is what bash's echo builtin prints (builtins/echo.def): leading
// words of only n, e and E letters after a `-` are options; xpg is the
// xpg_echo shell option, which turns -e on by default.
func bashEcho(args []string, xpg bool) (string, bool) {
	newline, escapes := true, xpg
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' && strings.Trim(args[0][1:], "neE") == "" {
		for _, l := range args[0][1:] {
			switch l {
			case 'n':
				newline = false
			case 'e':
				escapes = true
			case 'E':
				escapes = false
			}
		}
		args = args[1:]
	}
	return echoWords(args, escapes, escBashEcho, newline)
}

// dashEcho is what dash's echo prints (src/bltin/printf.c echocmd): only
// a first word of exactly -n is an option, and escapes are always read.
func dashEcho(args []string) (string, bool) {
	newline := true
	if len(args) > 0 && args[0] == "-n" {
		newline, args = false, args[1:]
	}
	return echoWords(args, true, escDashEcho, newline)
}

// echoWords is what an echo prints for its operands: the words joined by
// spaces, with escapes read as reader reads them (or as written), output
// ending at `\c`, then a newline unless it is off.
func echoWords(args []string, escapes bool, reader escReader, newline bool) (string, bool) {
	var sb strings.Builder
	for i, a := range args {
		if i > 0 {
			sb.WriteByte(' ')
		}
		if !escapes {
			sb.WriteString(a)
			continue
		}
		s, stop, ok := decodeEscapes(a, reader)
		if !ok {
			return "", false
		}
		sb.WriteString(s)
		if stop {
			return sb.String(), true
		}
	}
	if newline {
		sb.WriteByte('\n')
	}
	return sb.String(), true
}

// bashPrintf is what bash's printf builtin prints (builtins/printf.def)
// for a format whose only conversions are %s, %b and %%: the format is
// used again while arguments remain and the last pass took some; a
// missing argument is empty; `\c` in a %b argument ends all output. Any
// other conversion, flag, width or precision is not known (ok false).
func bashPrintf(format string, args []string) (string, bool) {
	return printfWith(format, args, escBashFormat, escBashB)
}

// dashPrintf is what dash's printf prints (src/bltin/printf.c printfcmd),
// for the same formats as bashPrintf.
func dashPrintf(format string, args []string) (string, bool) {
	return printfWith(format, args, escDashFormat, escDashEcho)
}

// printfWith runs a printf of %s, %b and %% with the escape readers of
// its format and of %b.
func printfWith(format string, args []string, fmtReader, bReader escReader) (string, bool) {
	var sb strings.Builder
	for {
		took := 0
		for i := 0; i < len(format); i++ {
			c := format[i]
			switch c {
			case '\\':
				// One escape at a time, as tescape reads it.
				end := escEnd(format, i, fmtReader)
				s, _, ok := decodeEscapes(format[i:end], fmtReader)
				if !ok {
					return "", false
				}
				sb.WriteString(s)
				i = end - 1
			case '%':
				if i+1 >= len(format) {
					return "", false // bash: missing format character
				}
				i++
				arg := ""
				switch format[i] {
				case '%':
					sb.WriteByte('%')
					continue
				case 's', 'b':
					if len(args) > 0 {
						arg, args = args[0], args[1:]
						took++
					}
				default:
					return "", false
				}
				if format[i] == 's' {
					sb.WriteString(arg)
					break
				}
				s, stop, ok := decodeEscapes(arg, bReader)
				if !ok {
					return "", false
				}
				sb.WriteString(s)
				if stop {
					return sb.String(), sb.Len() <= maxLiteralOutput
				}
			default:
				sb.WriteByte(c)
			}
			if sb.Len() > maxLiteralOutput {
				return "", false
			}
		}
		if took == 0 || len(args) == 0 {
			break
		}
	}
	out := sb.String()
	return out, !strings.Contains(out, "\x00")
}

// escEnd is the end of the escape that starts with the backslash at
// format[i]: past the letter, and the digits an octal, \x or \u escape
// may take (the reader stops at the first byte that is not one).
func escEnd(format string, i int, reader escReader) int {
	j := i + 2
	if j > len(format) {
		return len(format)
	}
	switch e := format[i+1]; {
	case reader == escDashFormat:
		// conv_escape; a byte that is no escape is read afresh.
		_, n, _ := dashEscape(format[i+1:], true)
		return i + 1 + n
	case !strings.ContainsRune(`abeEfnrtv\'"?01234567xuU`, rune(e)),
		(e == 'x' || e == 'u' || e == 'U') && (j >= len(format) || !isHex(format[j])):
		// tescape: not an escape, the backslash stands and the next
		// byte is read afresh (`\%s` is a backslash and a conversion).
		return i + 1
	case e >= '0' && e <= '7':
		for k := 0; k < 2 && j < len(format) && format[j] >= '0' && format[j] <= '7'; k++ {
			j++
		}
	case e == 'x':
		for k := 0; k < 2 && j < len(format) && isHex(format[j]); k++ {
			j++
		}
	case e == 'u' || e == 'U':
		max := 4
		if e == 'U' {
			max = 8
		}
		for k := 0; k < max && j < len(format) && isHex(format[j]); k++ {
			j++
		}
	}
	return j
}
