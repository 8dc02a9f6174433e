// Package prompt asks a person on the controlling terminal whether a tool
// call may run, and renders untrusted text so a terminal cannot be made to
// hide or fake any part of it.
//
// It owns the terminal: opening it, raw single-key input, the timeout, and
// restoring the terminal state on every way out. It does not decide anything,
// build the "always" rules or write configuration: the caller passes those in
// a Question and acts on the Answer.
package prompt
