//go:build !unix

package config

// oNonblock: Windows has no FIFOs that block an open; OpenRegular still
// refuses what is not a regular file.
const oNonblock = 0
