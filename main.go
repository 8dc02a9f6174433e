package main

import (
	"os"

	"github.com/gatekeep/gatekeep/cmd"
)

func main() { os.Exit(cmd.Main()) }
