// Command etcd is upstream's etcd server, built from its Go module for Paddock's local control plane.
// It lives in its own module so that its dependency versions never mix with Kubernetes'.
package main

import (
	"os"

	"go.etcd.io/etcd/server/v3/etcdmain"
)

func main() {
	etcdmain.Main(os.Args)
}
