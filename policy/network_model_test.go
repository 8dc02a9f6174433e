package policy

import "github.com/gatekeep/gatekeep/shellparse/cmdmodel"

// The config keys that move pip's index and npm's registry, as the
// network tests name them.
var pipMoves, npmMoves = cmdmodel.PipMoves, cmdmodel.NpmMoves
