// Command kube-proxy is upstream's kube-proxy, built from its Go module for the node of Paddock's local
// test bed.
package main

import (
	"os"

	"k8s.io/component-base/cli"
	"k8s.io/kubernetes/cmd/kube-proxy/app"
)

func main() {
	os.Exit(cli.Run(app.NewProxyCommand()))
}
