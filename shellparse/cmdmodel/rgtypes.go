package cmdmodel

import (
	"strings"
	"sync"
)

// rgTypes are the file name endings of ripgrep's common --type names
// (`rg --type-list`, ripgrep 14).
var rgTypes = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"go": {".go"}, "py": {".py", ".pyi"}, "js": {".js", ".jsx", ".mjs", ".cjs", ".vue"},
		"ts": {".ts", ".tsx", ".cts", ".mts"}, "rust": {".rs"}, "java": {".java", ".jsp", ".properties"},
		"c": {".c", ".h", ".h.in"}, "cpp": {".cpp", ".cc", ".cxx", ".hpp", ".hh", ".hxx", ".h", ".c++", ".h++", ".inl", ".ipp"},
		"md":   {".md", ".markdown", ".mdx", ".mkd", ".mkdn", ".mdown", ".mdwn", ".mkdown", ".ron"},
		"json": {".json", ".sarif", ".jsonl"}, "yaml": {".yaml", ".yml"}, "toml": {".toml", "cargo.lock"},
		"sh": {".sh", ".bash", ".zsh", ".ksh", ".csh", ".tcsh", ".bashrc", ".zshrc", ".profile", ".bash_profile",
			".bash_login", ".bash_logout", ".zprofile", ".zlogin", ".zlogout", ".kshrc", ".cshrc", ".tcshrc"},
		"ruby": {".rb", ".gemspec", "gemfile", ".rbw", "rakefile", ".rake"}, "html": {".html", ".htm", ".xhtml", ".ejs"},
		"css": {".css", ".scss"},
	}
})

// RgTypeEndings are the file name endings (lowercase) ripgrep's --type
// name typ selects, nil for a name it does not know here; Claude Code's
// Grep tool passes its type to rg.
func RgTypeEndings(typ string) []string { return rgTypes()[strings.ToLower(typ)] }
