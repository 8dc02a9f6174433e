//go:build linux

package cmd_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// netserveNames are the names the servers of cmdNetserve answer for.
var netserveNames = []string{"allowed.test", "other.test", "git.test", "pypi.test"}

// cmdNetserve is the enforcement scripts' `netserve DIR`: it serves DIR's
// files over HTTPS, with a certificate for netserveNames signed by a
// throw-away CA, and over plain HTTP, each on a loopback port of this
// process (outside every namespace), and a raw TCP server that answers
// "hi". It sets $CA (the CA's PEM file, for CURL_CA_BUNDLE and the like),
// $RAWPORT, and GATEKEEP_TEST_PROXY_REDIRECT so that gatekeep's proxy
// dials NAME:443 and NAME:80 there: the names resolve nowhere, and
// /etc/hosts stays as it is. Everything stops when the script ends.
func cmdNetserve(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: netserve DIR")
	}
	dir := ts.MkAbs(args[0])
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	ts.Check(err)
	caTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "gatekeep test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour), IsCA: true,
		KeyUsage: x509.KeyUsageCertSign, BasicConstraintsValid: true}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	ts.Check(err)
	ca, err := x509.ParseCertificate(caDER)
	ts.Check(err)
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	ts.Check(err)
	leafTmpl := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: netserveNames[0]},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour), DNSNames: netserveNames,
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	leafDER, err := x509.CreateCertificate(rand.Reader, leafTmpl, ca, &key.PublicKey, caKey)
	ts.Check(err)
	caFile := filepath.Join(ts.Getenv("WORK"), "ca.pem")
	ts.Check(os.WriteFile(caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}), 0o644))

	handler := http.FileServer(http.Dir(dir))
	listen := func() net.Listener {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		ts.Check(err)
		return ln
	}
	tlsLn := listen()
	tlsSrv := &http.Server{Handler: handler, TLSConfig: &tls.Config{Certificates: []tls.Certificate{{
		Certificate: [][]byte{leafDER}, PrivateKey: key}}}}
	go tlsSrv.ServeTLS(tlsLn, "", "")
	plainLn := listen()
	plainSrv := &http.Server{Handler: handler}
	go plainSrv.Serve(plainLn)
	raw := listen()
	go func() {
		for {
			c, err := raw.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("hi\n"))
			c.Close()
		}
	}()
	ts.Defer(func() {
		tlsSrv.Close()
		plainSrv.Close()
		raw.Close()
	})
	var redirect []string
	for _, n := range netserveNames {
		redirect = append(redirect, n+":443="+tlsLn.Addr().String(), n+":80="+plainLn.Addr().String())
	}
	ts.Setenv("GATEKEEP_TEST_PROXY_REDIRECT", strings.Join(redirect, ","))
	ts.Setenv("CA", caFile)
	ts.Setenv("RAWPORT", strings.TrimPrefix(raw.Addr().String(), "127.0.0.1:"))
}
