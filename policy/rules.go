package policy

// RuleSet is the Tool(pattern) rules of every configuration layer.
type RuleSet struct{}

// rulesLayer (5) answers from the first configuration layer with a matching
// rule.
func rulesLayer(e *evaluation, p *part) verdict {
	return e.ruleVerdict(p, Allow, Ask, Deny)
}

// ruleVerdict matches p against the rules whose effect is one of effects.
func (e *evaluation) ruleVerdict(p *part, effects ...Effect) verdict {
	if e.cfg.Rules == nil {
		return verdict{}
	}
	return verdict{}
}
