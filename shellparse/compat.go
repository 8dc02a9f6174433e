package shellparse

import "github.com/gatekeep/gatekeep/shellparse/cmdmodel"

// The command model's types, under the names cmd's agent-tool mapping
// still uses; that file is being moved out of cmd by a change of its own,
// which then names cmdmodel and drops these.
type (
	FileEffect   = cmdmodel.FileEffect
	Filter       = cmdmodel.Filter
	EntryVerdict = cmdmodel.EntryVerdict
)

const (
	EntryDefault = cmdmodel.EntryDefault
	EntrySkip    = cmdmodel.EntrySkip
	EntryListed  = cmdmodel.EntryListed
)
