package registry_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"io"
	"log"
	"math/big"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/avrogo/avro/internal/fixture"
	"github.com/avrogo/avro/registry"
)

// A registry that requires client certificates (mTLS) is reached through
// the caller's http.Client, and refuses a client without one.
func TestMutualTLS(t *testing.T) {
	ca, caKey := newCert(t, nil, nil, "test CA", true)
	clientCert, clientKey := newCert(t, ca, caKey, "producer", false)
	pool := x509.NewCertPool()
	pool.AddCert(ca)

	f := fixture.NewRegistry()
	var seen atomic.Value
	f.Seen = func(r *http.Request) {
		if r.TLS != nil && len(r.TLS.PeerCertificates) > 0 {
			seen.Store(r.TLS.PeerCertificates[0].Subject.CommonName)
		}
	}
	srv := httptest.NewUnstartedServer(f)
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshakes below
	srv.TLS = &tls.Config{ClientAuth: tls.RequireAndVerifyClientCert, ClientCAs: pool}
	srv.StartTLS()
	defer srv.Close()
	ctx := context.Background()

	tr := srv.Client().Transport.(*http.Transport).Clone()
	tr.TLSClientConfig.Certificates = []tls.Certificate{{Certificate: [][]byte{clientCert.Raw}, PrivateKey: clientKey}}
	c := newClient(t, srv.URL, registry.WithHTTPClient(&http.Client{Transport: tr}))
	if _, err := c.Register(ctx, "users-value", userSchema); err != nil {
		t.Fatal(err)
	}
	if got, _ := seen.Load().(string); got != "producer" {
		t.Errorf("the registry saw the client certificate of %q, want producer", got)
	}

	// Without a certificate the handshake fails: a network error, which
	// the retries do not get past.
	anon := newClient(t, srv.URL, registry.WithHTTPClient(srv.Client()))
	_, err := anon.Register(ctx, "users-value", userSchema)
	var re *registry.Error
	if err == nil || errors.As(err, &re) {
		t.Errorf("a client without a certificate: %v, want a TLS error", err)
	}
}

func newCert(t *testing.T, parent *x509.Certificate, parentKey *ecdsa.PrivateKey, name string, isCA bool) (*x509.Certificate, *ecdsa.PrivateKey) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(time.Now().UnixNano()),
		Subject:               pkix.Name{CommonName: name},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
		IsCA:                  isCA,
		BasicConstraintsValid: true,
	}
	if parent == nil {
		parent, parentKey = tmpl, key
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, &key.PublicKey, parentKey)
	if err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	return cert, key
}
