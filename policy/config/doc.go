// Package config reads gatekeep's configuration: it finds the project
// root, reads the config layers (managed, user, project, local, the
// embedded default) as TOML, validates and lints them, keeps the trust
// store of project files, runs a file's [[test]] entries, and writes
// files (the local rules, the trust store) atomically under a lock.
//
// It turns files into values for package policy (rules, mode, plan,
// sandbox settings); it never decides a call itself.
package config
