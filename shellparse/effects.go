package shellparse

// Access is how a command uses a file.
type Access uint8

const (
	Read Access = iota
	Write
)

func (a Access) String() string {
	if a == Write {
		return "write"
	}
	return "read"
}

// FileEffect is one file a command reads or writes.
type FileEffect struct {
	Access Access
	Path   Word
	// Via says what makes the effect: "redirect", or the command name.
	Via string
}

// Effects lists the files a command reads and writes: its redirects, and
// the operands of the commands in the effects table. writesOnly is true
// when the command is one whose only effect is changing the files listed,
// so that it counts as a file edit rather than an arbitrary command.
func Effects(c *Command) (effects []FileEffect, writesOnly bool) {
	for _, r := range c.Redirects {
		switch {
		case r.Writes():
			effects = append(effects, FileEffect{Access: Write, Path: r.Target, Via: "redirect"})
		case r.Reads():
			effects = append(effects, FileEffect{Access: Read, Path: r.Target, Via: "redirect"})
		}
	}
	return effects, false
}
