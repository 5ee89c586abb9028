// Package registryflags holds what the commands share to reach a Schema
// Registry: the flags of its credentials, each with an environment
// variable that stands in for it, and the client they make.
package registryflags

import (
	"flag"

	"github.com/avrogo/avro/registry"
)

// Auth are the credential flags.
type Auth struct {
	User, Password, Token string
}

// Declare defines the flags -user, -password and -token on fs.
func (a *Auth) Declare(fs *flag.FlagSet) {
	fs.StringVar(&a.User, "user", "", "the `user` of HTTP basic authentication (default $AVRO_REGISTRY_USER)")
	fs.StringVar(&a.Password, "password", "", "the `password` of HTTP basic authentication (default $AVRO_REGISTRY_PASSWORD)")
	fs.StringVar(&a.Token, "token", "", "a bearer `token` for the registry (default $AVRO_REGISTRY_TOKEN)")
}

// Client returns a client of the registry at url (several URLs separated
// by commas) with the credentials of the flags, or, for those not given,
// of the environment that getenv reads.
func (a *Auth) Client(url string, getenv func(string) string) (*registry.Client, error) {
	or := func(v, key string) string {
		if v != "" {
			return v
		}
		return getenv(key)
	}
	var opts []registry.Option
	user, password := or(a.User, "AVRO_REGISTRY_USER"), or(a.Password, "AVRO_REGISTRY_PASSWORD")
	if user != "" || password != "" {
		opts = append(opts, registry.WithBasicAuth(user, password))
	}
	if token := or(a.Token, "AVRO_REGISTRY_TOKEN"); token != "" {
		opts = append(opts, registry.WithBearerToken(token))
	}
	return registry.NewClient(url, opts...)
}
