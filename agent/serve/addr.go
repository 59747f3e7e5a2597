package serve

import (
	"context"
	"fmt"
	"net"
	"time"
)

// CheckAddr refuses to listen on an address reachable from other machines
// without a token. Loopback addresses (127.0.0.0/8, ::1, and names that
// resolve only to them, such as localhost) are always allowed.
func CheckAddr(addr string, hasToken bool) error {
	if hasToken {
		return nil
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("serve: address %q: %w", addr, err)
	}
	loopback, err := isLoopback(host)
	if err != nil {
		return fmt.Errorf("serve: address %q: %w", addr, err)
	}
	if !loopback {
		return fmt.Errorf("serve: refusing to listen on %s without a token: other machines could run code here. "+
			"Set one (PYBOX_TOKEN, --token-file or token_file in [serve]) or listen on 127.0.0.1", addr)
	}
	return nil
}

func isLoopback(host string) (bool, error) {
	if host == "" {
		return false, nil // every interface
	}
	if ip := net.ParseIP(host); ip != nil {
		return ip.IsLoopback(), nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	ips, err := net.DefaultResolver.LookupIPAddr(ctx, host)
	if err != nil {
		return false, err
	}
	for _, ip := range ips {
		if !ip.IP.IsLoopback() {
			return false, nil
		}
	}
	return len(ips) > 0, nil
}
