package shellparse

import (
	"errors"
	"testing"
)

// TestLocaleChange: a script that changes the character set the shell
// reads it in to one not known to read as UTF-8 is refused (parse.error);
// a prefix on a program that reads no shell code is harmless. The first
// row ran touch in the real bash (zh_CN.GBK, built with localedef; see
// testdata/script/locale_change.txtar).
func TestLocaleChange(t *testing.T) {
	tests := []struct {
		src     string
		refused bool
	}{
		{"LC_ALL=zh_CN.GBK\necho \"\xe4\xb8\x81\\\"; touch M #\"", true},
		{"LC_ALL=zh_CN.GBK; echo hi", true},
		{"export LC_ALL=zh_CN.GBK", true},
		{"export LANG=ja_JP.SJIS", true},
		{"declare -x LC_CTYPE=zh_TW.BIG5", true},
		{"f() { local LC_ALL=zh_CN.GBK; }", true},
		{"typeset LANG=en_US", true},
		{"readonly LC_ALL=zh_CN.GB18030", true},
		{"LC_ALL=$X", true},
		{"read LC_ALL", true},
		{"for LANG in a; do :; done", true},
		{"printf -v LC_CTYPE %s zh_CN.GBK", true},
		{"unset LC_ALL", true},
		{"if false; then LC_ALL=zh_CN.GBK; fi; echo hi", true},
		{"LC_ALL=zh_CN.GBK bash -c 'echo hi'", true},
		{"LC_ALL=zh_CN.GBK eval 'echo hi'", true},
		{"env LC_ALL=zh_CN.GBK sh -c 'echo hi'", true},
		{"f() { :; }; LANG=zh_CN.GBK f", true},
		// Known to read as UTF-8 (or bytes as bytes): unchanged.
		{"export LC_ALL=C.UTF-8", false},
		{"LANG=en_US.utf8; ls", false},
		{"export LC_ALL=C", false},
		{"LC_ALL=POSIX", false},
		{"LANG=de_DE.UTF-8@euro", false},
		{"LC_ALL=C.UTF-8 bash -c 'echo hi'", false},
		// A prefix on a program changes only its output.
		{"LC_ALL=zh_CN.GBK ls", false},
		{"LANG=zh_CN.GBK sort f", false},
		{"LC_MESSAGES=zh_CN.GBK; ls", false},
	}
	for _, tt := range tests {
		_, err := Parse(tt.src, Options{})
		var pe *Error
		refused := errors.As(err, &pe) && pe.Code == CodeParse
		if refused != tt.refused {
			t.Errorf("%q: err %v, want refused %v", tt.src, err, tt.refused)
		}
	}
}
