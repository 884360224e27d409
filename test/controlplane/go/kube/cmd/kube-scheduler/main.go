// Command kube-scheduler is upstream's kube-scheduler, built from its Go module for the node of
// Paddock's local test bed.
package main

import (
	"os"

	"k8s.io/component-base/cli"
	"k8s.io/kubernetes/cmd/kube-scheduler/app"
)

func main() {
	os.Exit(cli.Run(app.NewSchedulerCommand()))
}
