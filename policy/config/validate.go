package config

import "github.com/gatekeep/gatekeep/policy"

// Validate loads the configuration as Load does and, when it loads, lints
// its rules (LintRules). The error is Load's: every *ConfigError joined.
func Validate(opts LoadOptions) (*Loaded, []policy.Lint, error) {
	l, err := Load(opts)
	if err != nil {
		return nil, nil, err
	}
	return l, policy.LintRules(l.Rules), nil
}
