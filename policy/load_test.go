package policy_test

import (
	"github.com/gatekeep/gatekeep/policy"
	"github.com/gatekeep/gatekeep/policy/config"
)

// The internal tests load config files through package config, which
// imports policy: this file, outside the package, hands it to them.
func init() {
	policy.LoadForTest = func(root, home string, p policy.TestPaths) (*policy.TestLoaded, error) {
		opts := config.LoadOptions{Root: root, Home: home,
			Paths: config.Paths{Managed: p.Managed, User: p.User, Trust: p.Trust, Cache: p.Cache}}
		if p.Cache != "" {
			opts.Version = "test"
		}
		l, err := config.Load(opts)
		if err != nil {
			return nil, err
		}
		return &policy.TestLoaded{Rules: l.Rules, Mode: l.Mode, Enforce: l.Enforce, Apply: l.Apply}, nil
	}
	policy.DiskForTest = config.Disk{}
	policy.TrustForTest = func(store, file string) error {
		_, err := config.TrustStore{Path: store}.Trust(file)
		return err
	}
}
