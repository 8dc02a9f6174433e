package shellparse

import "github.com/gatekeep/gatekeep/shellparse/cmdmodel"

// Effects lists the files c reads and writes by the command model
// (cmdmodel.Effects), c read as a wrapper when the parser found the command
// it runs. writesOnly is also false for code that is not seen (Unknown,
// StdinCode).
func Effects(c *Command) (effects []cmdmodel.FileEffect, writesOnly bool) {
	effects, writesOnly = cmdmodel.Effects(&c.Command, c.IsWrapper())
	return effects, writesOnly && (len(c.Args) == 0 || c.Unknown == "" && !c.StdinCode)
}
